import { abbreviateNumber, cn } from '@clipit/ui';
import { useEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';
import type { FeedClip } from '../lib/feed-data.js';

/** Spec 01 §9: a horizontal swipe longer than this moves the carousel. */
export const SWIPE_THRESHOLD_PX = 50;

/** What the home preview reads of a clip (spec 01 §3, "Feed clip (preview)"). */
export type PreviewClip = Pick<FeedClip, 'id' | 'name' | 'authorHandle' | 'likes' | 'views' | 'videoUrl' | 'videoThumbnailUrl'>;

/**
 * Keeps the slides' media in step: the current one plays, muted; the others pause and let go of their
 * media. `sourceKey` changes whenever a slide's source does (a move, a failure).
 */
function useOnlyCurrentPlays(videos: RefObject<(HTMLVideoElement | null)[]>, current: number, sourceKey: string) {
  // The video that was given a source last: when it loses it, load() drops what it buffered.
  const holder = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    let playing: HTMLVideoElement | null = null;
    videos.current.forEach((video, index) => {
      if (!video) return;
      if (index === current && video.getAttribute('src')) {
        video.muted = true;
        // Spec 01 §8: a play failure (autoplay refused, a source gone) is only logged.
        Promise.resolve(video.play()).catch((err: unknown) => console.warn('Preview clip could not play', err));
        playing = video;
        return;
      }
      video.pause();
      // Its src attribute is gone, but the media element keeps what it loaded until told to load again.
      if (video === holder.current) video.load();
    });
    holder.current = playing;
  }, [videos, current, sourceKey]);
}

/**
 * Whether `element` is on screen (any of it); always true where IntersectionObserver is missing. Below
 * the fold the carousel loads no video: the page's first paint gets the network to itself.
 */
function useOnScreen(element: HTMLElement | null): boolean {
  const [onScreen, setOnScreen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) setOnScreen(entry.isIntersecting);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return onScreen;
}

/**
 * The home page's 'Live on Demand' carousel (spec 01 §2 Home): one slide at a time, the current one
 * playing muted in a loop; prev/next and the dots move it, so does a horizontal swipe of more than 50 px,
 * and it wraps at both ends. The stage keeps a 9:16 box whatever loads into it. Off screen, nothing plays.
 */
export function ClipCarousel({ clips, label }: { clips: readonly PreviewClip[]; label: string }) {
  const [current, setCurrent] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const videos = useRef<(HTMLVideoElement | null)[]>([]);
  const swipe = useRef<{ pointerId: number; x: number } | null>(null);
  const [stage, setStage] = useState<HTMLDivElement | null>(null);
  const onScreen = useOnScreen(stage);
  const count = clips.length;
  const index = count === 0 ? 0 : Math.min(current, count - 1);
  const go = (to: number) => setCurrent(((to % count) + count) % count);
  // Only the current slide has a source, and only while the carousel is on screen.
  const sources = clips.map((clip, i) => (onScreen && i === index && clip.videoUrl && !failed.has(clip.id) ? clip.videoUrl : undefined));
  useOnlyCurrentPlays(videos, index, sources.join('\n'));

  const onPointerDown = (event: PointerEvent) => {
    swipe.current = { pointerId: event.pointerId, x: event.clientX };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.pointerId !== event.pointerId || count < 2) return;
    const dx = event.clientX - start.x;
    if (Math.abs(dx) > SWIPE_THRESHOLD_PX) go(dx < 0 ? index + 1 : index - 1);
  };

  const clip = clips[index];
  return (
    <div className="clipit-carousel" role="region" aria-roledescription="carousel" aria-label={label}>
      <div
        className="clipit-carousel__stage"
        ref={setStage}
        data-testid="carousel-stage"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipe.current = null)}
      >
        <div className="clipit-carousel__track" style={{ transform: `translateX(${-100 * index}%)` }}>
          {clips.map((slide, i) => {
            const isCurrent = i === index;
            const unavailable = failed.has(slide.id) || !slide.videoUrl;
            return (
              <div
                key={slide.id}
                className={cn('clipit-carousel__slide', unavailable && 'clipit-carousel__slide--failed')}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${count}: ${slide.name}`}
                aria-hidden={!isCurrent}
                inert={!isCurrent}
                data-current={isCurrent}
              >
                {slide.videoThumbnailUrl ? (
                  <img
                    className="clipit-carousel__poster"
                    src={slide.videoThumbnailUrl}
                    alt=""
                    width={360}
                    height={640}
                    loading="lazy"
                    decoding="async"
                  />
                ) : null}
                <video
                  ref={(element) => {
                    videos.current[i] = element;
                  }}
                  className="clipit-carousel__video"
                  src={sources[i]}
                  preload={sources[i] ? 'auto' : 'none'}
                  autoPlay={Boolean(sources[i])}
                  muted
                  loop
                  playsInline
                  disablePictureInPicture
                  aria-label={`Clip: ${slide.name}`}
                  onError={() => setFailed((before) => new Set(before).add(slide.id))}
                />
                {unavailable ? <p className="clipit-carousel__unavailable">Video unavailable</p> : null}
              </div>
            );
          })}
        </div>
      </div>
      {clip ? (
        <div className="clipit-carousel__caption">
          <p className="clipit-carousel__title">{clip.name}</p>
          <p className="clipit-carousel__meta">
            @{clip.authorHandle} · {abbreviateNumber(clip.views)} views · {abbreviateNumber(clip.likes)} likes
          </p>
        </div>
      ) : null}
      {/* Always there (empty for a single clip), so the box is as tall whatever the count. */}
      <div className="clipit-carousel__controls">
        {count > 1 ? (
          <>
            <button
              type="button"
              className="clip-btn clip-btn--outline clip-btn--icon"
              aria-label="Previous clip"
              onClick={() => go(index - 1)}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <div className="clipit-carousel__dots">
              {clips.map((slide, i) => (
                <button
                  key={slide.id}
                  type="button"
                  className="clipit-carousel__dot"
                  aria-label={`Show clip ${i + 1} of ${count}`}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => go(i)}
                />
              ))}
            </div>
            <button
              type="button"
              className="clip-btn clip-btn--outline clip-btn--icon"
              aria-label="Next clip"
              onClick={() => go(index + 1)}
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : null}
      </div>
    </div>
  );
}
