import { describe, expect, it } from '@jest/globals';
import { feedLayoutFor, holdsVideo } from './feed-layout.js';

describe('feed layout', () => {
  it('picks the card variant and lazy-load margin by viewport (spec 01 §9: 200, 300, 500, 600 px)', () => {
    expect(feedLayoutFor(390, false)).toEqual({ variant: 'mobile', lazyMargin: 200 });
    expect(feedLayoutFor(767, false)).toEqual({ variant: 'mobile', lazyMargin: 200 });
    expect(feedLayoutFor(768, false)).toEqual({ variant: 'snap', lazyMargin: 300 });
    expect(feedLayoutFor(1279, false)).toEqual({ variant: 'snap', lazyMargin: 300 });
    expect(feedLayoutFor(1280, false)).toEqual({ variant: 'snap', lazyMargin: 500 });
    expect(feedLayoutFor(1920, true)).toEqual({ variant: 'fullscreen', lazyMargin: 600 });
  });

  it('gives a video only to the active card and its neighbours: never more than 3', () => {
    for (const active of [0, 1, 7, 49]) {
      const holding = Array.from({ length: 50 }, (_, i) => i).filter((i) => holdsVideo(i, active));
      expect(holding.length).toBeLessThanOrEqual(3);
      expect(holding).toEqual([active - 1, active, active + 1].filter((i) => i >= 0 && i < 50));
    }
  });
});
