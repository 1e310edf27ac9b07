import { describe, expect, it } from '@jest/globals';
import { GOLD_TIER, isGoldClipper } from './gold-tier.js';

describe('isGoldClipper', () => {
  it('is true from the Gold tier (3) up, Diamond (4) included', () => {
    expect(GOLD_TIER).toBe(3);
    expect([1, 2, 3, 4].map((currentTier) => isGoldClipper({ currentTier }))).toEqual([false, false, true, true]);
  });

  it('is false without a person or a tier', () => {
    expect(isGoldClipper(null)).toBe(false);
    expect(isGoldClipper(undefined)).toBe(false);
    expect(isGoldClipper({ currentTier: null })).toBe(false);
    expect(isGoldClipper({})).toBe(false);
  });

  it('where the role is known, only a clipper', () => {
    expect(isGoldClipper({ currentTier: 3, role: 'clipper' })).toBe(true);
    expect(isGoldClipper({ currentTier: 4, role: 'streamer' })).toBe(false);
    expect(isGoldClipper({ currentTier: 3, role: 'admin' })).toBe(false);
    expect(isGoldClipper({ currentTier: 3, role: null })).toBe(true);
  });
});
