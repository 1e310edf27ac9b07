import { describe, expect, it } from '@jest/globals';
import { normalizeAmount, toBaseUnits } from './amount.js';
import type { ApprovedClip, Tier } from './rules.js';
import { clipperTierOf, computeStanding, lockedFeatures, standingChanged } from './standing.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const clip = (daysAgo: number, views: number, streamerMultiplier = 1): ApprovedClip => ({
  approvedAt: new Date(NOW.getTime() - daysAgo * 86_400_000),
  views,
  streamerMultiplier,
});
const TIERS: Tier[] = [
  {
    level: 1,
    name: 'Bronze',
    ratePerPost: 10,
    minTotalApproved: 0,
    windowWeeks: 4,
    minApprovedInWindow: 1,
    minApprovalRate: 0.5,
    minAvgViews: 100,
  },
  {
    level: 2,
    name: 'Silver',
    ratePerPost: 15,
    minTotalApproved: 10,
    windowWeeks: 4,
    minApprovedInWindow: 5,
    minApprovalRate: 0.7,
    minAvgViews: 500,
  },
  {
    level: 3,
    name: 'Gold',
    ratePerPost: 25,
    minTotalApproved: 25,
    windowWeeks: 4,
    minApprovedInWindow: 10,
    minApprovalRate: 0.8,
    minAvgViews: 1500,
  },
  {
    level: 4,
    name: 'Diamond',
    ratePerPost: 40,
    minTotalApproved: 50,
    windowWeeks: 4,
    minApprovedInWindow: 20,
    minApprovalRate: 0.9,
    minAvgViews: 5000,
  },
];

describe('a standing', () => {
  it('takes the tier first, then points with multipliers only from Silver up', () => {
    const bronze = computeStanding(TIERS, { approved: [clip(1, 0, 2)], rejectedCount: 0 }, 1, NOW);
    expect(bronze).toMatchObject({ currentTier: 1, clipperTier: 'bronze', clipPoints: 10 });
    const silverFacts = { approved: [...Array.from({ length: 9 }, () => clip(1, 500)), clip(1, 500, 2)], rejectedCount: 0 };
    // Silver: 10 × (9 + 2) + 5,000 / 10.
    expect(computeStanding(TIERS, silverFacts, 1, NOW)).toMatchObject({ currentTier: 2, clipperTier: 'silver', clipPoints: 610 });
  });

  it('keeps a tier once held, and stops the points tier at gold', () => {
    expect(computeStanding(TIERS, { approved: [], rejectedCount: 0 }, 3, NOW)).toMatchObject({ currentTier: 3, clipperTier: 'gold' });
    expect(clipperTierOf(4)).toBe('gold');
    expect(clipperTierOf(1)).toBe('bronze');
  });

  it('remembers the last approval', () => {
    expect(computeStanding(TIERS, { approved: [clip(3, 0), clip(1, 0)], rejectedCount: 0 }, 1, NOW).lastApprovedClipDate).toEqual(
      new Date(NOW.getTime() - 86_400_000),
    );
    expect(computeStanding(TIERS, { approved: [], rejectedCount: 2 }, 1, NOW).lastApprovedClipDate).toBeNull();
  });

  it('is news to others only when points or a tier moved', () => {
    const computed = computeStanding(TIERS, { approved: [clip(1, 0)], rejectedCount: 0 }, 1, NOW);
    expect(standingChanged(undefined, computed)).toBe(true);
    expect(standingChanged({ clipPoints: 10, clipperTier: 'bronze', currentTier: 1 }, computed)).toBe(false);
    expect(standingChanged({ clipPoints: 9, clipperTier: 'bronze', currentTier: 1 }, computed)).toBe(true);
  });

  it('lists the locked features of spec 02 §6 per points tier', () => {
    expect(lockedFeatures('bronze')).toEqual(['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns']);
    expect(lockedFeatures('silver')).toEqual(['Hire Button Visibility', 'Paid Campaigns']);
    expect(lockedFeatures('gold')).toEqual([]);
  });
});

describe('amounts', () => {
  it('drop trailing zeros and convert to the token’s base units exactly', () => {
    expect(normalizeAmount('10.500000')).toBe('10.5');
    expect(normalizeAmount('3.000000')).toBe('3');
    expect(normalizeAmount(22.5)).toBe('22.5');
    expect(toBaseUnits('22.5')).toBe(22_500_000n);
    expect(toBaseUnits('0.000001')).toBe(1n);
    expect(toBaseUnits('127.5')).toBe(127_500_000n);
    expect(() => normalizeAmount('1e5')).toThrow();
  });
});
