import { Button, cn, Spinner } from '@clipit/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from '@clipit/router';
import { FeedCard, FeedCardSkeleton } from '../components/feed-card.js';
import { clipsOf, requestFirstPageEarly, useFeedClips } from '../lib/feed-data.js';
import { holdsVideo, useFeedLayout, useFeedFit, useFeedVisibility } from '../lib/feed-layout.js';
import '../styles/feed.css';

const FAILED = 'Failed to load clips. Please try again.';

requestFirstPageEarly();

const svg = (d: string) => (
  <svg
    viewBox="0 0 24 24"
    width="22"
    height="22"
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
const SPEAKER = 'M11 5L6 9H2v6h4l5 4V5z';
const MUTED_ICON = svg(`${SPEAKER}M23 9l-6 6M17 9l6 6`);
const SOUND_ICON = svg(`${SPEAKER}M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14`);
const EXPAND_ICON = svg('M8 3H3v5M16 3h5v5M8 21H3v-5M16 21h5v-5');
const SHRINK_ICON = svg('M3 8h5V3M21 8h-5V3M3 16h5v5M21 16h-5v5');

/**
 * /feed, ClipTok (spec 01 §2 Feed): full-height cards that snap as the viewer scrolls. The card at
 * least half visible plays from the start, muted until the viewer unmutes; the next page of 10 is
 * asked for as the end comes near.
 */
export default function FeedPage() {
  const layout = useFeedLayout();
  const feed = useFeedClips();
  const clips = useMemo(() => clipsOf(feed.data), [feed.data]);
  const [muted, setMuted] = useState(true);
  const frame = useRef<HTMLDivElement>(null);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [sentinel, setSentinel] = useState<HTMLDivElement | null>(null);
  const { active, near, observe } = useFeedVisibility(scroller, layout.lazyMargin);
  useFeedFit(frame);
  // The first clip's picture gets the network to itself: the cards around it are drawn in full (their
  // posters, their videos) once it is on screen, unless the viewer has already scrolled to one.
  const [firstShown, setFirstShown] = useState(false);
  const markFirstShown = useCallback(() => setFirstShown(true), []);

  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = feed;
  useEffect(() => {
    if (!scroller || !sentinel || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return undefined;
    if (typeof IntersectionObserver === 'undefined') return undefined;
    // Re-created after every page, so a sentinel still in reach asks for the next one at once; after a
    // failure it waits for 'Try again' instead of asking in a loop.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { root: scroller, rootMargin: `${layout.lazyMargin}px 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [scroller, sentinel, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, layout.lazyMargin]);

  const fullscreen = layout.variant === 'fullscreen';
  const toggleFullscreen = () => {
    const request = fullscreen ? document.exitFullscreen() : frame.current?.requestFullscreen();
    void request?.catch((err: unknown) => console.warn('Full screen refused', err));
  };

  let body;
  if (feed.isPending) {
    body = (
      <div className="clipit-feed__scroller" aria-busy="true">
        <FeedCardSkeleton variant={layout.variant} />
      </div>
    );
  } else if (clips.length === 0 && feed.isError) {
    body = (
      <div className="clipit-feed__message">
        <p role="alert">{FAILED}</p>
        <Button variant="outline" onClick={() => void feed.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (clips.length === 0) {
    body = (
      <div className="clipit-feed__message">
        <h2>No clips yet</h2>
        <p className="clipit-muted">Approved clips show up here. Be the first to submit one!</p>
        <Link to="/submit" className="clip-btn clip-btn--primary clip-btn--md">
          Submit a Clip
        </Link>
      </div>
    );
  } else {
    body = (
      <>
        <div className="clipit-feed__controls">
          <button type="button" className="clipit-feed__control" aria-label={muted ? 'Unmute' : 'Mute'} onClick={() => setMuted((m) => !m)}>
            {muted ? MUTED_ICON : SOUND_ICON}
          </button>
          {layout.variant !== 'mobile' && document.fullscreenEnabled ? (
            <button
              type="button"
              className="clipit-feed__control"
              aria-label={fullscreen ? 'Exit full screen' : 'Full screen'}
              onClick={toggleFullscreen}
            >
              {fullscreen ? SHRINK_ICON : EXPAND_ICON}
            </button>
          ) : null}
        </div>
        <div ref={setScroller} className="clipit-feed__scroller" role="feed" aria-label="Clips" aria-busy={isFetchingNextPage} tabIndex={0}>
          {clips.map((clip, index) => {
            const waits = !firstShown && index !== 0 && index !== active;
            return (
              <FeedCard
                key={clip.id}
                clip={clip}
                index={index}
                variant={layout.variant}
                active={index === active}
                near={near.has(index) && !waits}
                holdsVideo={holdsVideo(index, active) && !waits}
                muted={muted}
                total={hasNextPage ? -1 : clips.length}
                observe={observe}
                onShown={index === 0 ? markFirstShown : undefined}
              />
            );
          })}
          {hasNextPage ? <div ref={setSentinel} className="clipit-feed__sentinel" data-testid="feed-sentinel" /> : null}
        </div>
        {isFetchingNextPage ? (
          <div className="clipit-feed__more">
            <Spinner label="Loading more clips" />
          </div>
        ) : null}
        {isFetchNextPageError ? (
          <div className="clipit-feed__more">
            <span role="alert">{FAILED}</span>
            <Button size="sm" variant="outline" onClick={() => void fetchNextPage()}>
              Try again
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div ref={frame} className={cn('clipit-feed', `clipit-feed--${layout.variant}`)}>
      <h1 className="clip-sr-only">ClipTok</h1>
      {body}
    </div>
  );
}
