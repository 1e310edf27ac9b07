import type { ReactNode } from 'react';

export interface FrameProps {
  /** The site header (SiteHeader: navigation, outside links, account, theme, the mobile drawer). */
  header?: ReactNode;
  /** The footer slot: the mobile bottom bar (BottomBar), hidden from 768 px up by its own CSS. */
  footer?: ReactNode;
  /** Set while the page's content is still being loaded. */
  busy?: boolean;
  children?: ReactNode;
}

/** Every page of the site sits in this frame: the header slot, the page, the footer slot. */
export function Frame({ header, footer, busy = false, children }: FrameProps) {
  return (
    <div className="clipit-frame">
      {header !== undefined && <header className="clipit-frame__header">{header}</header>}
      <main className="clipit-frame__main" aria-busy={busy}>
        {children}
      </main>
      {footer !== undefined && <footer className="clipit-frame__footer">{footer}</footer>}
    </div>
  );
}
