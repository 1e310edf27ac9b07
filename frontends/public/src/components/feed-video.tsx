import { cn } from '@clipit/ui';
import { useEffect, useRef, useState } from 'react';
import type { FeedClip } from '../lib/feed-data.js';

/** A clip's 'w:h' as numbers; portrait 9:16 when unknown or unreadable. */
export function aspectOf(ratio: string | null): [number, number] {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio ?? '');
  const w = Number(match?.[1]);
  const h = Number(match?.[2]);
  return w > 0 && h > 0 ? [w, h] : [9, 16];
}

export interface FeedVideoProps {
  clip: FeedClip;
  /** The card at least half visible: it plays. */
  active: boolean;
  /** Within the media budget (the active card or a neighbour): a <video> with its source. */
  holdsVideo: boolean;
  /** Within the lazy-load margin: the poster is loaded. */
  near: boolean;
  /** The first card: its poster is the page's largest paint, fetched first. */
  first: boolean;
  /** The feed's mute toggle. */
  muted: boolean;
  /** Called once the poster is on screen (or failed, or there is none): the feed then draws the cards around it. */
  onShown?: () => void;
}

/** Calls `then` once the browser has painted the current frame (the next frame's callback, then a task). */
function afterPaint(then: () => void): void {
  requestAnimationFrame(() => setTimeout(then, 0));
}

/**
 * A clip's media: the poster image, with the video over it while the card is in the media budget. The
 * active clip plays from the start and the others pause; only the active one may have sound. A clip that
 * cannot play shows 'Video unavailable' over its faded poster.
 *
 * The poster comes first: the video (and its download, many times the poster's size) is added once the
 * poster is on screen (or has failed), so a phone shows the clip's picture as soon as it can instead of
 * sharing the network between the two.
 */
export function FeedVideo({ clip, active, holdsVideo, near, first, muted, onShown }: FeedVideoProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(clip.hasVideo !== 'true' || !clip.videoUrl);
  const [posterShown, setPosterShown] = useState(!clip.videoThumbnailUrl);
  const hasVideo = holdsVideo && !failed && posterShown;
  useEffect(() => {
    if (posterShown) onShown?.();
  }, [posterShown, onShown]);
  const [w, h] = aspectOf(clip.videoAspectRatio);

  useEffect(() => {
    const element = video.current;
    if (!element) return undefined;
    // Leaving the media budget: let go of the media now (a removed <video> is only paused, and keeps its
    // buffers until it is collected).
    return () => {
      element.pause();
      element.removeAttribute('src');
      element.load();
    };
  }, [hasVideo]);

  // Before the play effect (effects run in order), so play() starts with the right sound.
  useEffect(() => {
    if (video.current) video.current.muted = muted || !active;
  }, [muted, active, hasVideo]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (active) {
      element.currentTime = 0;
      // Spec 01 §8: a play failure (autoplay refused, a source gone) is only logged.
      Promise.resolve(element.play()).catch((err: unknown) => console.warn(`Clip ${clip.id} could not play`, err));
    } else {
      element.pause();
    }
  }, [active, hasVideo, clip.id]);

  return (
    <div className={cn('clipit-feed-media', failed && 'clipit-feed-media--failed')}>
      {clip.videoThumbnailUrl && (near || first || holdsVideo) ? (
        <img
          className="clipit-feed-media__poster"
          src={clip.videoThumbnailUrl}
          alt=""
          width={w * 40}
          height={h * 40}
          loading={first ? 'eager' : 'lazy'}
          fetchPriority={first ? 'high' : undefined}
          decoding="async"
          onLoad={() => afterPaint(() => setPosterShown(true))}
          onError={() => setPosterShown(true)}
        />
      ) : null}
      {hasVideo && clip.videoUrl ? (
        <video
          ref={video}
          className="clipit-feed-media__video"
          src={clip.videoUrl}
          preload={active ? 'auto' : 'metadata'}
          muted
          playsInline
          loop
          aria-label={`Clip: ${clip.name}`}
          onError={() => setFailed(true)}
        />
      ) : null}
      {failed ? (
        <div className="clipit-feed-media__unavailable" role="status">
          <strong>Video unavailable</strong>
          <span>Unsupported format</span>
        </div>
      ) : null}
    </div>
  );
}
