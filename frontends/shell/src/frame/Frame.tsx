import type { ReactNode } from 'react';

export interface FrameProps {
  /** The site header (navigation, account); filled by the frame work. */
  header?: ReactNode;
  /** The footer, or the mobile bottom bar. */
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
