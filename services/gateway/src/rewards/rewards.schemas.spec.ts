import type { identityV1, rewardsV1 } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import {
  clipperStatsSchema,
  dashboardSchema,
  toClipperStatsJson,
  toEarningsPageJson,
  earningsPageSchema,
  toDashboardJson,
  toPayoutsPageJson,
} from './rewards.schemas.js';

const user = {
  id: '6b1f7c8e-0d4a-4c5e-9a77-2f1d0c9b8a11',
  email: 'rita@example.com',
  displayName: 'Rita',
  twitterUsername: 'rita',
  role: 'clipper',
  currentTier: 1,
  isLive: 'false',
  streamerMultiplier: '1.00',
  createdAt: '2026-11-01T00:00:00.000Z',
} as unknown as identityV1.User;

describe('the dashboard answer', () => {
  it('takes the user from the session and the tier from rewards, shows the approval rate as a percentage and amounts as numbers', () => {
    const json = toDashboardJson(user, {
      currentTier: 2,
      tierProgress: {
        currentTier: { name: 'Silver', ratePerClip: '15' },
        nextTier: { name: 'Gold', ratePerClip: '25' },
        progressPercent: 40,
        missingRequirements: ['x'],
        meetsNextTierRequirements: false,
      },
      metrics: { totalApproved: 12, approvedInWindow: 6, approvalRate: 0.857142, avgViews: 612.6, approvedThisWeek: 2, windowWeeks: 4 },
      earningsSummary: { paid: '100', pending: '22.5', held: '10', total: '132.5' },
      recentSubmissions: [
        {
          id: 's1',
          name: 'Clip',
          platform: 'twitter',
          views: 10,
          createdAt: '2026-11-20T10:00:00.000Z',
          status: 'rejected',
          rejectedReason: 'Off topic',
        },
      ],
    } as rewardsV1.Dashboard);
    expect(dashboardSchema.parse(json)).toEqual(json);
    expect(json.user).toMatchObject({ id: user.id, currentTier: 2, profileImageUrl: null, nextStreamTime: null });
    expect(json.metrics).toMatchObject({ approvalRate: 85.7, avgViews: 613 });
    expect(json.earningsSummary).toEqual({ paid: 100, pending: 22.5, held: 10, total: 132.5 });
    expect(json.tierProgress.nextTier).toEqual({ name: 'Gold', ratePerClip: 25 });
    expect(json.recentSubmissions[0]).toMatchObject({ url: null, rejectedReason: 'Off topic' });
  });

  it('has no next tier at the top', () => {
    const json = toDashboardJson(user, {
      currentTier: 4,
      tierProgress: {
        currentTier: { name: 'Diamond', ratePerClip: '40' },
        progressPercent: 100,
        missingRequirements: [],
        meetsNextTierRequirements: false,
      },
      metrics: { totalApproved: 0, approvedInWindow: 0, approvalRate: 0, avgViews: 0, approvedThisWeek: 0, windowWeeks: 4 },
      earningsSummary: { paid: '0', pending: '0', held: '0', total: '0' },
      recentSubmissions: [],
    } as unknown as rewardsV1.Dashboard);
    expect(json.tierProgress.nextTier).toBeNull();
    expect(json.payoutHold).toBeNull();
  });

  it('carries a payout hold (a replaced wallet, ADR 0032) with its amount as a number', () => {
    const hold = {
      amount: '22.5',
      reason: 'Your wallet address was changed…',
      heldUntil: '2026-11-30T02:00:00.000Z',
      walletChangedAt: '2026-11-27T02:00:00.000Z',
    };
    const json = toDashboardJson(user, {
      currentTier: 1,
      tierProgress: {
        currentTier: { name: 'Bronze', ratePerClip: '10' },
        progressPercent: 0,
        missingRequirements: [],
        meetsNextTierRequirements: false,
      },
      metrics: { totalApproved: 0, approvedInWindow: 0, approvalRate: 0, avgViews: 0, approvedThisWeek: 0, windowWeeks: 4 },
      earningsSummary: { paid: '0', pending: '22.5', held: '0', total: '22.5' },
      recentSubmissions: [],
      hold,
    } as unknown as rewardsV1.Dashboard);
    expect(dashboardSchema.parse(json)).toEqual(json);
    expect(json.payoutHold).toEqual({ ...hold, amount: 22.5 });
  });
});

describe('clip stats', () => {
  it('passes on the points tier and the locked features as rewards answers them (spec 02 §6)', () => {
    const stats = (tier: string, lockedFeatures: string[]) =>
      toClipperStatsJson({
        points: 5,
        tier,
        rank: 1,
        totalClippers: 1,
        breakdown: { approvedCount: 1, basePoints: 5, viewBonusPoints: 0, approvalRatio: 0.5, inactivityPenalty: false, finalPoints: 5 },
        lockedFeatures,
      });
    // Whatever rewards says is locked at a tier is what the browser reads: the gateway keeps no list of its own.
    expect(stats('bronze', ['Feature A', 'Feature B'])).toMatchObject({ tier: 'bronze', lockedFeatures: ['Feature A', 'Feature B'] });
    expect(stats('silver', ['Feature B']).lockedFeatures).toEqual(['Feature B']);
    expect(stats('gold', []).lockedFeatures).toEqual([]);
    expect(clipperStatsSchema.parse(stats('gold', []))).toEqual(stats('gold', []));
    expect(stats('gold', []).lastUpdated).toBeNull();
  });
});

describe('the payout ledger', () => {
  it('names the transaction signature and ends with a null cursor', () => {
    const json = toPayoutsPageJson({
      payouts: [
        {
          id: 'p',
          periodStart: 'a',
          periodEnd: 'b',
          walletAddress: 'W',
          amount: '127.5',
          txHash: 'sig',
          driver: 'solana',
          paidAt: 'c',
          earningsCount: 3,
        },
      ],
    });
    expect(json).toEqual({
      payouts: [
        {
          id: 'p',
          periodStart: 'a',
          periodEnd: 'b',
          walletAddress: 'W',
          amount: 127.5,
          signature: 'sig',
          driver: 'solana',
          paidAt: 'c',
          earningsCount: 3,
        },
      ],
      nextCursor: null,
    });
  });
});

describe('earnings', () => {
  it('carries a held earning with its reasons and a voided one with the admin’s reason (ADR 0050)', () => {
    const base = { submissionId: 's1', amount: '15', type: 'post', createdAt: '2026-11-20T10:00:00.000Z' };
    const json = toEarningsPageJson({
      earnings: [
        { ...base, id: 'e1', status: 'held', holdReasons: ['It duplicates a clip you submitted earlier.'] },
        {
          ...base,
          id: 'e2',
          status: 'voided',
          holdReasons: ['Its video matches a clip submitted earlier by another clipper.'],
          decision: { decision: 'voided', reason: 'A copy', at: '2026-11-21T10:00:00.000Z' },
        },
      ],
    });
    expect(earningsPageSchema.parse(json)).toEqual(json);
    expect(json.earnings.map((e) => [e.status, e.holdReasons.length, e.decision?.reason ?? null])).toEqual([
      ['held', 1, null],
      ['voided', 1, 'A copy'],
    ]);
  });
});
