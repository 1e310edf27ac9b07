import { abbreviateNumber, cn, formatDate, Skeleton, Spinner, VisuallyHidden } from '@clipit/ui';
import { memo, useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { Link } from '@clipit/router';
import type { FeedClip } from '../lib/feed-data.js';
import type { FeedVariant } from '../lib/feed-layout.js';
import { isGoldClipper } from '../lib/gold-tier.js';
import { displayNameOf, initialOf } from '../lib/people.js';
import { FeedLikeButton } from './feed-like-button.js';
import { aspectOf, FeedVideo } from './feed-video.js';
import { HireClipperButton } from './hire-button.js';

const icon = (d: string) => (
  <svg
    viewBox="0 0 24 24"
    width="24"
    height="24"
    aria-hidden="true"
    focusable="false"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
  >
    <path d={d} />
  </svg>
);
const EYE = icon('M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12zm11 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z');
const REPEAT = icon('M17 1l4 4-4 4M3 11V9a4 4 0 0 1 4-4h14M7 23l-4-4 4-4m18-2v2a4 4 0 0 1-4 4H3');

function Stat({ value, label, children }: { value: number; label: string; children: ReactNode }) {
  return (
    <div className="clipit-feed-action">
      <span className="clipit-feed-action__icon">{children}</span>
      <span className="clipit-feed-action__count">
        {abbreviateNumber(value)}
        <VisuallyHidden> {label}</VisuallyHidden>
      </span>
    </div>
  );
}

/** 'Trade $NAME': the token's name with one leading $. */
const tradeLabel = (name: string) => `Trade $${name.replace(/^\$/, '')}`;

export interface FeedCardProps {
  clip: FeedClip;
  index: number;
  variant: FeedVariant;
  active: boolean;
  near: boolean;
  holdsVideo: boolean;
  muted: boolean;
  /** How many clips the feed has, -1 while more pages may come (role=feed's aria-setsize). */
  total: number;
  /** Registers the card with the feed's visibility observers (returns the cleanup). */
  observe: (card: Element | null) => (() => void) | undefined;
  /** Called once the card's poster is on screen (see FeedVideo). */
  onShown?: () => void;
}

/**
 * One clip of the feed, one feed viewport tall (spec 01 §2, §3 Feed clip), in each of its variants: the
 * media, its name and description, the author (name, avatar, handle to their profile), the published date,
 * a link to the X post, the token's trade link, 'Hire
 * Clipper' when the author is a gold clipper (spec 02 §2.7), and the likes, views and retweets.
 */
export const FeedCard = memo(function FeedCard({
  clip,
  index,
  variant,
  active,
  near,
  holdsVideo,
  muted,
  total,
  observe,
  onShown,
}: FeedCardProps) {
  const card = useRef<HTMLElement>(null);
  useEffect(() => observe(card.current), [observe]);
  const author = clip.user;
  const handle = author?.twitterUsername || clip.authorHandle;
  const name = displayNameOf(author) || handle;
  const published = clip.publishedAt ? formatDate(clip.publishedAt) : '';
  const titleId = `clipit-feed-title-${clip.id}`;
  const [w, h] = aspectOf(clip.videoAspectRatio);
  // Only cards within the lazy-load margin (or holding a video) are drawn in full: the rest are their
  // boxes and titles, so a long feed renders a few cards' worth of elements.
  const full = near || holdsVideo;
  return (
    <article
      ref={card}
      className={cn('clipit-feed-card', `clipit-feed-card--${variant}`, active && 'clipit-feed-card--active')}
      data-index={index}
      aria-labelledby={titleId}
      aria-posinset={index + 1}
      aria-setsize={total}
      style={{ '--clipit-feed-ratio': `${w} / ${h}` } as CSSProperties}
    >
      {variant === 'fullscreen' && clip.videoThumbnailUrl && near ? (
        <img className="clipit-feed-card__backdrop" src={clip.videoThumbnailUrl} alt="" aria-hidden="true" decoding="async" />
      ) : null}
      <div className="clipit-feed-card__stage">
        {full ? (
          <FeedVideo clip={clip} active={active} holdsVideo={holdsVideo} near={near} first={index === 0} muted={muted} onShown={onShown} />
        ) : null}
        <div className="clipit-feed-card__info">
          <h2 id={titleId} className="clipit-feed-card__title">
            {clip.name}
          </h2>
          {full ? (
            <>
              {clip.description ? <p className="clipit-feed-card__description">{clip.description}</p> : null}
              <div className="clipit-feed-card__author">
                {author?.profileImageUrl ? (
                  <img
                    className="clipit-feed-avatar"
                    src={author.profileImageUrl}
                    alt=""
                    width={36}
                    height={36}
                    loading="lazy"
                    decoding="async"
                  />
                ) : (
                  <span className="clipit-feed-avatar" aria-hidden="true">
                    {initialOf(author ?? { twitterUsername: handle })}
                  </span>
                )}
                <span className="clipit-feed-card__who">
                  <span className="clipit-feed-card__name">{name}</span>
                  <Link to={`/clipper/${clip.userId}`} className="clipit-feed-card__handle">
                    @{handle}
                  </Link>
                </span>
              </div>
              {published ? (
                <time className="clipit-feed-card__date" dateTime={clip.publishedAt ?? undefined}>
                  {published}
                </time>
              ) : null}
              <a className="clipit-feed-card__post" href={clip.url} target="_blank" rel="noopener noreferrer">
                View on X<VisuallyHidden> (opens in a new tab)</VisuallyHidden>
              </a>
              {clip.token?.pumpFunLink ? (
                <a
                  className="clip-btn clip-btn--primary clip-btn--sm clipit-feed-card__trade"
                  href={clip.token.pumpFunLink}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {tradeLabel(clip.token.name)}
                </a>
              ) : null}
              {isGoldClipper(author) ? <HireClipperButton clipperId={clip.userId} clipperName={name} /> : null}
            </>
          ) : null}
        </div>
        {full ? (
          <div className="clipit-feed-card__actions">
            <FeedLikeButton clip={clip} />
            <Stat value={clip.views} label="views">
              {EYE}
            </Stat>
            <Stat value={clip.retweets} label="retweets">
              {REPEAT}
            </Stat>
          </div>
        ) : null}
      </div>
    </article>
  );
});

/** The feed while its first page loads: a card's box with the spinner, so nothing moves when clips arrive. */
export function FeedCardSkeleton({ variant }: { variant: FeedVariant }) {
  return (
    <div className={cn('clipit-feed-card', `clipit-feed-card--${variant}`)} data-testid="feed-skeleton">
      <div className="clipit-feed-card__stage">
        <Skeleton className="clipit-feed-media clipit-feed-media--skeleton" />
        <Spinner size="lg" label="Loading clips" className="clipit-feed-card__spinner" />
      </div>
    </div>
  );
}
