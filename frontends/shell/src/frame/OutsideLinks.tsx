import { cn, VisuallyHidden } from '@clipit/ui';
import { siteLinks, type LinkKey } from '@clipit/frontend-contracts';

const LABELS: readonly { key: LinkKey; label: string }[] = [
  { key: 'chat', label: 'Community Chat' },
  { key: 'x', label: 'X' },
  { key: 'telegram', label: 'Telegram' },
  { key: 'discord', label: 'Discord' },
];

function OutsideLink({ href, label, className }: { href: string; label: string; className: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {label}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </a>
  );
}

/**
 * The community chat, the three social accounts and Buy $CLIP: buttons that open in a new tab, to
 * the URLs the build was configured with (CLIPIT_LINK_*).
 */
export function OutsideLinks({ className, block = false }: { className?: string; block?: boolean }) {
  const links = siteLinks();
  return (
    <ul className={cn('clipit-outside-links', className)}>
      {LABELS.map(({ key, label }) => (
        <li key={key}>
          <OutsideLink
            href={links[key]}
            label={label}
            className={cn('clip-btn clip-btn--ghost clip-btn--sm', block && 'clip-btn--block')}
          />
        </li>
      ))}
      <li>
        <OutsideLink
          href={links.buy}
          label="Buy $CLIP"
          className={cn('clip-btn clip-btn--primary clip-btn--sm', block && 'clip-btn--block')}
        />
      </li>
    </ul>
  );
}
