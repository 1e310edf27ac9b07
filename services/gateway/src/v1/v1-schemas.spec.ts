import type { campaignsV1, rewardsV1, submissionsV1 } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import { toV1Campaign, toV1CampaignClip } from './campaigns.schemas.js';
import { toV1Earning, toV1Payout } from './earnings.schemas.js';
import { toV1Submission, toV1SubmissionViews } from './submissions.schemas.js';

// The v1 shapes from the owners' gRPC answers: int64 as the loader gives it (text), absent optionals as null
// or left out as each schema says, money as exact decimal strings, and only the checks a clipper may read.

const AT = '2026-11-30T10:00:00.000Z';
const asLong = (n: number) => String(n) as unknown as number;

describe('v1 campaigns', () => {
  it('answers a campaign with its delivered and verified views and its progress', () => {
    const c = {
      id: 'c1',
      streamerId: 's1',
      title: 'Launch week push',
      description: 'Clips of the launch stream.',
      targetViews: asLong(100_000),
      budgetAmount: '500.00',
      status: 'approved',
      deliveredViews: asLong(42_345),
      verifiedViews: asLong(40_000),
      approvedAt: AT,
      createdAt: AT,
      updatedAt: AT,
    } as campaignsV1.CpmCampaign;
    expect(toV1Campaign(c)).toEqual({
      id: 'c1',
      title: 'Launch week push',
      status: 'approved',
      targetViews: 100_000,
      budgetAmount: '500.00',
      deliveredViews: 42_345,
      verifiedViews: 40_000,
      progressPercent: 42.3,
      approvedAt: AT,
      completedAt: null,
      createdAt: AT,
    });
    expect(toV1Campaign({ ...c, verifiedViews: undefined, status: 'pending' })).toMatchObject({ verifiedViews: 0, status: 'pending' });
  });

  it('answers a counted clip with its history, leaving out a post campaigns does not know', () => {
    const clip = {
      submissionId: 'd1',
      clipperId: 'u1',
      views: asLong(1200),
      underReview: true,
      approvedAt: AT,
    } as campaignsV1.CampaignClip;
    const point = { at: AT, views: asLong(1200), likes: asLong(3), retweets: asLong(2), replies: asLong(1) } as submissionsV1.MetricsPoint;
    const answer = toV1CampaignClip(clip, [point]);
    expect(answer).toEqual({
      submissionId: 'd1',
      clipperId: 'u1',
      views: 1200,
      underReview: true,
      approvedAt: AT,
      viewHistory: [{ at: AT, views: 1200, likes: 3, retweets: 2, replies: 1 }],
    });
    expect('postUrl' in answer).toBe(false);
    expect(toV1CampaignClip({ ...clip, postUrl: 'https://x.com/a/status/1' }, undefined)).toMatchObject({
      postUrl: 'https://x.com/a/status/1',
      viewHistory: [],
    });
  });
});

describe('v1 submissions', () => {
  const base = {
    id: 's1',
    userId: 'u1',
    name: 'A clip',
    url: 'https://x.com/a/status/1',
    status: 'approved',
    createdAt: AT,
    approvedAt: AT,
    views: asLong(900),
    videoState: 'ready',
    matchesChecked: true,
    guideChecks: [{ rule: 'portrait', verdict: 'warning', message: 'Landscape' }],
  } as submissionsV1.Submission;

  it('answers the checks the clipper sees: verification, views under review with why but never the score, the flag, the video’s checks', () => {
    const s = {
      ...base,
      verifiedAt: AT,
      risk: { score: 85, reasons: ['Views jumped while likes did not move'], underReview: true },
      hold: { causes: ['views', 'unknown-cause'], reasons: ['Views jumped while likes did not move'] },
    } as submissionsV1.Submission;
    const answer = toV1Submission(s);
    expect(answer).toEqual({
      id: 's1',
      name: 'A clip',
      postUrl: 'https://x.com/a/status/1',
      status: 'approved',
      rejectedReason: null,
      createdAt: AT,
      approvedAt: AT,
      views: 900,
      checks: {
        postVerified: true,
        postVerifiedAt: AT,
        viewsReview: { reasons: ['Views jumped while likes did not move'] },
        flag: { causes: ['views'], reasons: ['Views jumped while likes did not move'] },
        reuploadChecked: true,
        videoState: 'ready',
        videoRejectedReason: null,
        guideChecks: [{ rule: 'portrait', verdict: 'warning', message: 'Landscape' }],
      },
    });
    expect(JSON.stringify(answer)).not.toContain('85');
  });

  it('answers no review and no flag below the threshold, and an unverified post as such', () => {
    const s = { ...base, risk: { score: 40, reasons: ['A small jump'], underReview: false }, guideChecks: [] } as submissionsV1.Submission;
    expect(toV1Submission(s).checks).toMatchObject({
      postVerified: false,
      postVerifiedAt: null,
      viewsReview: null,
      flag: null,
      guideChecks: [],
    });
  });

  it('answers a view history with its counts, oldest first as submissions gives it', () => {
    const h = {
      submissionId: 's1',
      views: asLong(20),
      likes: asLong(2),
      retweets: asLong(1),
      replies: asLong(0),
      quoteCount: asLong(0),
      bookmarkCount: asLong(0),
      verificationCode: 'CLIP-ABCDEF',
      lastMetricsFetch: AT,
      points: [{ at: AT, views: asLong(20), likes: asLong(2), retweets: asLong(1), replies: asLong(0) }],
    } as submissionsV1.GetMetricsHistoryResponse;
    expect(toV1SubmissionViews(h)).toEqual({
      submissionId: 's1',
      views: 20,
      likes: 2,
      retweets: 1,
      replies: 0,
      postVerified: false,
      lastReadAt: AT,
      points: [{ at: AT, views: 20, likes: 2, retweets: 1, replies: 0 }],
    });
  });
});

describe('v1 earnings and payouts', () => {
  it('keeps $CLIP amounts as rewards’ exact decimal strings, and the transaction’s signature', () => {
    const e = {
      id: 'e1',
      submissionId: 's1',
      amount: '12.345678',
      type: 'post',
      status: 'held',
      createdAt: AT,
      holdReasons: ['Its video matches a clip submitted earlier by another clipper.'],
      heldAt: AT,
      decision: { decision: 'released', reason: 'Original', at: AT, by: 'admin-1' },
    } as rewardsV1.Earning;
    expect(toV1Earning(e)).toEqual({
      id: 'e1',
      submissionId: 's1',
      submissionName: null,
      amount: '12.345678',
      type: 'post',
      status: 'held',
      holdReasons: ['Its video matches a clip submitted earlier by another clipper.'],
      heldAt: AT,
      decision: { decision: 'released', reason: 'Original', at: AT },
      payoutId: null,
      txSignature: null,
      createdAt: AT,
    });
    expect(toV1Earning({ ...e, status: 'paid', txHash: 'sig', payoutId: 'p1' })).toMatchObject({ txSignature: 'sig', payoutId: 'p1' });
    const p = {
      id: 'p1',
      periodStart: AT,
      periodEnd: AT,
      walletAddress: 'W',
      amount: '10',
      txHash: 'sig',
      driver: 'ledger',
      paidAt: AT,
      earningsCount: 2,
    } as rewardsV1.Payout;
    expect(toV1Payout(p)).toEqual({
      id: 'p1',
      amount: '10',
      walletAddress: 'W',
      txSignature: 'sig',
      periodStart: AT,
      periodEnd: AT,
      paidAt: AT,
      earningsCount: 2,
    });
  });
});
