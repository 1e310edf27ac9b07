import { useEffect } from 'react';

export const SITE_TITLE = 'CLIP IT';
/** The site's description: the default page's, and the one in index.html before any page has rendered. */
export const SITE_DESCRIPTION = 'CLIP IT: clip live streams and memes, post them on X and earn for every approved clip.';

/** Sets the browser tab's title and the page's meta description while the calling page is shown. */
export function useDocumentTitle(title: string, description: string = SITE_DESCRIPTION): void {
  useEffect(() => {
    document.title = title;
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [title, description]);
}
