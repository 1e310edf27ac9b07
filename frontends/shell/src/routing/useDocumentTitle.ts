import { useEffect } from 'react';

export const SITE_TITLE = 'CLIP IT';

/** Sets the browser tab's title while the calling page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
