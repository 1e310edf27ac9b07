// How the feed is laid out and which cards hold media (spec 01 §2 Feed, §9).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';

export type FeedVariant = 'mobile' | 'snap' | 'fullscreen';

export interface FeedLayout {
  variant: FeedVariant;
  /** How far outside the feed's viewport a card starts loading its poster, and the next page is asked for. */
  lazyMargin: number;
}

// The three card variants of the spec, by viewport. The breakpoints are the shell frame's: below 768 px
// (phones, where the bottom bar shows) the mobile card fills the width; from 768 px the full-height
// snap card centres the clip, and from 1280 px (the full header) it is the same card with more room and
// a longer look-ahead. The fullscreen card, whose blurred poster fills the sides, is what the feed shows
// while it is in the browser's full screen (the 'Full screen' button, medium screens and up). The
// spec's four lazy-load margins go to these four layouts, growing with the screen.
const LAYOUTS = {
  mobile: { variant: 'mobile', lazyMargin: 200 },
  tablet: { variant: 'snap', lazyMargin: 300 },
  desktop: { variant: 'snap', lazyMargin: 500 },
  fullscreen: { variant: 'fullscreen', lazyMargin: 600 },
} as const satisfies Record<string, FeedLayout>;

export const MEDIUM_MIN_WIDTH = 768;
export const DESKTOP_MIN_WIDTH = 1280;

export function feedLayoutFor(width: number, fullscreen: boolean): FeedLayout {
  if (fullscreen) return LAYOUTS.fullscreen;
  if (width < MEDIUM_MIN_WIDTH) return LAYOUTS.mobile;
  return width < DESKTOP_MIN_WIDTH ? LAYOUTS.tablet : LAYOUTS.desktop;
}

function subscribeToViewport(onChange: () => void) {
  window.addEventListener('resize', onChange);
  document.addEventListener('fullscreenchange', onChange);
  return () => {
    window.removeEventListener('resize', onChange);
    document.removeEventListener('fullscreenchange', onChange);
  };
}

/** The layout for the current viewport, following resizes and full screen. */
export function useFeedLayout(): FeedLayout {
  return useSyncExternalStore(subscribeToViewport, () => feedLayoutFor(window.innerWidth, Boolean(document.fullscreenElement)));
}

/** Spec 01 §9: a clip plays once half of its card is visible. */
export const ACTIVE_THRESHOLD = 0.5;

/**
 * The media budget: only the active card and its neighbours hold a <video> with a source (the next one
 * is ready when the viewer scrolls on), so at most 3 do however long the feed gets.
 */
export function holdsVideo(index: number, active: number): boolean {
  return Math.abs(index - active) <= 1;
}

const indexOf = (element: Element) => Number((element as HTMLElement).dataset['index']);

/**
 * Watches the cards (elements with data-index) inside the scrolling `root`: `active` is the card at
 * least half visible, `near` the cards within `lazyMargin` px of the viewport. `observe` registers a
 * card and returns its cleanup.
 */
export function useFeedVisibility(root: HTMLElement | null, lazyMargin: number) {
  const [active, setActive] = useState(0);
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set([0]));
  const cards = useRef(new Set<Element>());
  const observers = useRef<IntersectionObserver[]>([]);

  useEffect(() => {
    if (!root || typeof IntersectionObserver === 'undefined') return undefined;
    const playing = new IntersectionObserver(
      (entries) => {
        for (const entry of entries)
          if (entry.isIntersecting && entry.intersectionRatio >= ACTIVE_THRESHOLD) setActive(indexOf(entry.target));
      },
      { root, threshold: ACTIVE_THRESHOLD },
    );
    const loading = new IntersectionObserver(
      (entries) =>
        setNear((before) => {
          const next = new Set(before);
          for (const entry of entries) {
            if (entry.isIntersecting) next.add(indexOf(entry.target));
            else next.delete(indexOf(entry.target));
          }
          return next.size === before.size && [...next].every((i) => before.has(i)) ? before : next;
        }),
      { root, rootMargin: `${lazyMargin}px 0px` },
    );
    observers.current = [playing, loading];
    for (const card of cards.current) {
      playing.observe(card);
      loading.observe(card);
    }
    return () => {
      playing.disconnect();
      loading.disconnect();
      observers.current = [];
    };
  }, [root, lazyMargin]);

  const observe = useCallback((card: Element | null) => {
    if (!card) return undefined;
    cards.current.add(card);
    for (const observer of observers.current) observer.observe(card);
    return () => {
      cards.current.delete(card);
      for (const observer of observers.current) observer.unobserve(card);
    };
  }, []);

  return { active, near, observe };
}

/**
 * Fits the feed between the shell's header and whatever navigation is fixed over the bottom of the screen
 * (the shell's bottom bar on phones): writes `--clipit-feed-top` (the feed's distance from the top of the
 * page) and `--clipit-feed-bottom` (how much of the screen's bottom is covered), before paint and again
 * on resize, so the stylesheet needs neither height.
 */
export function useFeedFit(frame: { current: HTMLElement | null }) {
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return undefined;
    const measure = () => {
      element.style.setProperty('--clipit-feed-top', `${Math.round(element.getBoundingClientRect().top + window.scrollY)}px`);
      if (typeof document.elementsFromPoint !== 'function') return;
      const bar = document
        .elementsFromPoint(window.innerWidth / 2, window.innerHeight - 1)
        .map((hit) => hit.closest('nav'))
        .find((nav) => nav && !element.contains(nav));
      const covered = bar ? window.innerHeight - bar.getBoundingClientRect().top : 0;
      element.style.setProperty('--clipit-feed-bottom', `${Math.max(0, Math.ceil(covered))}px`);
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [frame]);
}
