import { describe, expect, it } from '@jest/globals';
import {
  clipPoints,
  earningAmount,
  metricsOf,
  streamerMultiplier,
  tierProgress,
  tierReached,
  type ApprovedClip,
  type Tier,
} from './rules.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const clip = (days: number, views = 0, streamerMultiplier = 1): ApprovedClip => ({ approvedAt: daysAgo(days), views, streamerMultiplier });

// ADR 0025's seed.
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

describe('clip points (spec 02 §9)', () => {
  it('is 10 per approved clip times the approval ratio, plus views / 10, rounded down', () => {
    // 3 approved, 1 rejected: ratio 0.75; base 3 × 10 × 0.75 = 22.5; views 1,005 → 100.5; 123.
    const points = clipPoints({ approved: [clip(1, 1000), clip(2, 5), clip(3, 0)], rejectedCount: 1 }, NOW, false);
    expect(points).toEqual({
      approvedCount: 3,
      basePoints: 22.5,
      viewBonusPoints: 100.5,
      approvalRatio: 0.75,
      inactivityPenalty: false,
      finalPoints: 123,
    });
  });

  it('halves after 2 weeks without an approved clip: exactly 14 days ago still counts, a moment more does not', () => {
    expect(clipPoints({ approved: [clip(14, 100)], rejectedCount: 0 }, NOW, false)).toMatchObject({
      inactivityPenalty: false,
      finalPoints: 20,
    });
    expect(clipPoints({ approved: [clip(14.0001, 100)], rejectedCount: 0 }, NOW, false)).toMatchObject({
      inactivityPenalty: true,
      finalPoints: 10,
    });
  });

  it('is 0 without approved clips, with no penalty (nothing to be inactive about)', () => {
    expect(clipPoints({ approved: [], rejectedCount: 4 }, NOW, false)).toEqual({
      approvedCount: 0,
      basePoints: 0,
      viewBonusPoints: 0,
      approvalRatio: 0,
      inactivityPenalty: false,
      finalPoints: 0,
    });
  });

  it("multiplies a clip's base points by its streamer's multiplier only where multipliers apply (Silver and up)", () => {
    const facts = { approved: [clip(1, 0, 2), clip(1, 0, 1)], rejectedCount: 0 };
    expect(clipPoints(facts, NOW, false).finalPoints).toBe(20);
    expect(clipPoints(facts, NOW, true).finalPoints).toBe(30);
  });
});

describe('tiers', () => {
  const facts = (approved: number, inWindow: number, rejected: number, views: number) => ({
    approved: Array.from({ length: approved }, (_, i) => clip(i < inWindow ? 1 : 40, views)),
    rejectedCount: rejected,
  });
  const reached = (f: ReturnType<typeof facts>, current = 1) => tierReached(TIERS, (t) => metricsOf(f, t.windowWeeks, NOW), current);

  it('is the highest tier whose every requirement is met', () => {
    expect(reached(facts(0, 0, 0, 0))).toBe(1);
    expect(reached(facts(10, 5, 4, 500))).toBe(2); // 10/14 = 71%
    expect(reached(facts(10, 5, 5, 500))).toBe(1); // 10/15 = 67%: under Silver's 70%
    expect(reached(facts(25, 10, 6, 1500))).toBe(3);
    expect(reached(facts(25, 9, 0, 1500))).toBe(2); // one short in the 4-week window
    expect(reached(facts(60, 20, 5, 5000))).toBe(4);
  });

  it('only rises: a quiet month keeps the tier reached', () => {
    expect(reached(facts(25, 0, 0, 1500), 3)).toBe(3);
  });

  it('shows the progress to the next tier by its least-advanced requirement, and what is missing', () => {
    const f = facts(6, 5, 2, 400);
    const progress = tierProgress(TIERS, 1, (t) => metricsOf(f, t.windowWeeks, NOW));
    expect(progress).toEqual({
      currentTier: { name: 'Bronze', ratePerClip: 10 },
      nextTier: { name: 'Silver', ratePerClip: 15 },
      // approved 6 of 0→10: 60%; in window 5 of 1→5: 100%; rate 75% of 50→70%: 100%; views 400 of 100→500: 75%.
      progressPercent: 60,
      missingRequirements: ['4 more approved clips (10 in total)', 'Average views of 500 (now 400)'],
      meetsNextTierRequirements: false,
    });
    const top = tierProgress(TIERS, 4, (t) => metricsOf(f, t.windowWeeks, NOW));
    expect(top).toMatchObject({ nextTier: null, progressPercent: 100, missingRequirements: [] });
  });
});

describe('multipliers and earnings', () => {
  it("follows the streamer's followers, unless an admin set one above 1.00, within 1.00 to 2.00", () => {
    expect([0, 99, 100, 999, 1000, 5000, 9999, 10000, 1e6].map((n) => streamerMultiplier(1, n))).toEqual([
      1.1, 1.1, 1.25, 1.25, 1.5, 1.75, 1.75, 2, 2,
    ]);
    expect(streamerMultiplier(1.35, 50)).toBe(1.35);
    expect(streamerMultiplier(3, 50)).toBe(2);
  });

  it("is the tier's rate times the multiplier, to the token's 6 decimals", () => {
    expect(earningAmount(15, 1.25)).toBe(18.75);
    expect(earningAmount(10, 1.1)).toBe(11);
    expect(earningAmount(25, 1.333333333)).toBe(33.333333);
  });
});
