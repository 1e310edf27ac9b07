import { describe, expect, it } from '@jest/globals';
import { clipEarning, multiplierAtApproval, streamerMultiplierChange, type StreamerMultiplierState } from './earning.js';
import { DEFAULT_MULTIPLIER_STEPS, type Tier } from './rules.js';

// ADR 0025's seed: the rates per approved clip are what the earning rule reads.
const tier = (level: number, name: string, ratePerPost: number): Tier => ({
  level,
  name,
  ratePerPost,
  minTotalApproved: 0,
  windowWeeks: 4,
  minApprovedInWindow: 0,
  minApprovalRate: 0,
  minAvgViews: 0,
});
const TIERS = [tier(1, 'Bronze', 10), tier(2, 'Silver', 15), tier(3, 'Gold', 25), tier(4, 'Diamond', 40)];
const STREAMER = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';

describe('clipEarning (ADR 0025: one earning per approved clip)', () => {
  it("is the held tier's rate per post times the clip's multiplier, from Silver up", () => {
    expect(clipEarning(TIERS, 2, 1.25)).toEqual({ tierLevel: 2, multiplier: 1.25, amount: '18.75' });
    expect(clipEarning(TIERS, 3, 2)).toEqual({ tierLevel: 3, multiplier: 2, amount: '50' });
    expect(clipEarning(TIERS, 4, 1.5)).toEqual({ tierLevel: 4, multiplier: 1.5, amount: '60' });
  });

  it("gives a Bronze clipper Bronze's rate with no multiplier, whatever the clip captured", () => {
    expect(clipEarning(TIERS, 1, 2)).toEqual({ tierLevel: 1, multiplier: 1, amount: '10' });
  });

  it('pays the rate of the tier held once the clip counts: the clip that reaches Silver earns 15, not 10', () => {
    expect(clipEarning(TIERS, 2, 1).amount).toBe('15');
  });

  it("reads the rate from the table's rows, so a changed rate is what the next approval earns", () => {
    const raised = TIERS.map((t) => (t.level === 2 ? { ...t, ratePerPost: 16.5 } : t));
    expect(clipEarning(raised, 2, 1.1).amount).toBe('18.15');
  });

  it("writes the amount to the token's 6 decimals without trailing zeros", () => {
    expect(clipEarning([tier(2, 'Silver', 25)], 2, 1.333333333).amount).toBe('33.333333');
    expect(clipEarning(TIERS, 2, 1.1).amount).toBe('16.5');
  });

  it("falls back to the table's first row for a level it does not hold, and refuses an empty table", () => {
    expect(clipEarning(TIERS.slice(0, 2), 4, 1.5)).toEqual({ tierLevel: 1, multiplier: 1.5, amount: '15' });
    expect(() => clipEarning([], 1, 1)).toThrow('the tiers table is empty');
  });
});

describe('multiplierAtApproval (the multiplier a clip captures and keeps)', () => {
  it('is 1 for a clip that tags no streamer', () => {
    expect(multiplierAtApproval(null, undefined, DEFAULT_MULTIPLIER_STEPS)).toBe(1);
    expect(multiplierAtApproval('', { streamerMultiplier: 2, followerCount: 50_000 }, DEFAULT_MULTIPLIER_STEPS)).toBe(1);
  });

  it('follows the follower-count steps: 1.1 under 100, 1.25, 1.5, 1.75, and 2.0 from 10,000', () => {
    const at = (followerCount: number) =>
      multiplierAtApproval(STREAMER, { streamerMultiplier: 1, followerCount }, DEFAULT_MULTIPLIER_STEPS);
    expect([0, 99, 100, 999, 1000, 4999, 5000, 9999, 10_000, 1_000_000].map(at)).toEqual([
      1.1, 1.1, 1.25, 1.25, 1.5, 1.5, 1.75, 1.75, 2, 2,
    ]);
  });

  it('takes the one an admin set when above 1.00, within 2.00', () => {
    expect(multiplierAtApproval(STREAMER, { streamerMultiplier: 1.35, followerCount: 20_000 }, DEFAULT_MULTIPLIER_STEPS)).toBe(1.35);
    expect(multiplierAtApproval(STREAMER, { streamerMultiplier: 3, followerCount: 0 }, DEFAULT_MULTIPLIER_STEPS)).toBe(2);
  });

  it('counts a tagged streamer rewards has not heard of yet as one with no followers', () => {
    expect(multiplierAtApproval(STREAMER, undefined, DEFAULT_MULTIPLIER_STEPS)).toBe(1.1);
  });

  it('reads the steps it is given (the multiplier table is data)', () => {
    const steps = [
      { minFollowers: 0, multiplier: 1 },
      { minFollowers: 500, multiplier: 1.4 },
    ];
    expect(multiplierAtApproval(STREAMER, { streamerMultiplier: 1, followerCount: 499 }, steps)).toBe(1);
    expect(multiplierAtApproval(STREAMER, { streamerMultiplier: 1, followerCount: 500 }, steps)).toBe(1.4);
  });
});

describe('streamerMultiplierChange (ADR 0042: the applied multiplier the public reads show)', () => {
  const state = (patch: Partial<StreamerMultiplierState> = {}): StreamerMultiplierState => ({
    role: 'streamer',
    streamerMultiplier: 1,
    followerCount: 0,
    appliedMultiplier: null,
    revision: 0,
    ...patch,
  });

  it('tells a streamer first heard of their step: 1.1 with no followers', () => {
    expect(streamerMultiplierChange(state(), DEFAULT_MULTIPLIER_STEPS)).toEqual({ multiplier: 1.1, revision: 1 });
  });

  it('tells again only when a step is crossed, with the next revision', () => {
    const told = state({ appliedMultiplier: 1.1, revision: 1 });
    expect(streamerMultiplierChange({ ...told, followerCount: 99 }, DEFAULT_MULTIPLIER_STEPS)).toBeUndefined();
    expect(streamerMultiplierChange({ ...told, followerCount: 100 }, DEFAULT_MULTIPLIER_STEPS)).toEqual({ multiplier: 1.25, revision: 2 });
    expect(streamerMultiplierChange({ ...told, followerCount: 10_000 }, DEFAULT_MULTIPLIER_STEPS)).toEqual({ multiplier: 2, revision: 2 });
  });

  it('is the multiplier a tagged clip captures at approval, the admin-set one included', () => {
    for (const [setByAdmin, followerCount] of [
      [1, 0],
      [1, 150],
      [1, 5000],
      [1.8, 0],
      [1.3, 20_000],
    ] as const) {
      const change = streamerMultiplierChange(state({ streamerMultiplier: setByAdmin, followerCount }), DEFAULT_MULTIPLIER_STEPS);
      expect(change?.multiplier).toBe(
        multiplierAtApproval(STREAMER, { streamerMultiplier: setByAdmin, followerCount }, DEFAULT_MULTIPLIER_STEPS),
      );
    }
  });

  it('tells nothing of people who are not streamers', () => {
    expect(streamerMultiplierChange(state({ role: 'clipper' }), DEFAULT_MULTIPLIER_STEPS)).toBeUndefined();
    expect(streamerMultiplierChange(state({ role: 'user', followerCount: 500 }), DEFAULT_MULTIPLIER_STEPS)).toBeUndefined();
  });
});
