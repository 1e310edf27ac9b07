import type { adminV1 } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import { progressPercent, rejectCampaignBody, toAdminCampaignJson } from './admin.schemas.js';

function aCampaign(overrides: Partial<adminV1.AdminCampaign> = {}): adminV1.AdminCampaign {
  return {
    id: 'c-1',
    streamerId: 's-1',
    streamerDisplayName: 'Big Streamer',
    streamerHandle: 'bigstreamer',
    title: 'Launch week',
    description: 'Clip our launch stream for a week.',
    targetViews: 100_000,
    budgetAmount: '500.00',
    status: 'approved',
    deliveredViews: 12_345,
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T11:00:00.000Z',
    ...overrides,
  };
}

describe('the admin campaign answer', () => {
  it('gives the budget in dollars, nulls for what is unset, and the progress to one decimal', () => {
    expect(toAdminCampaignJson(aCampaign())).toEqual({
      id: 'c-1',
      streamerId: 's-1',
      streamerDisplayName: 'Big Streamer',
      streamerHandle: 'bigstreamer',
      title: 'Launch week',
      description: 'Clip our launch stream for a week.',
      targetViews: 100_000,
      budgetAmount: 500,
      contentLink: null,
      status: 'approved',
      deliveredViews: 12_345,
      progressPercent: 12.3,
      rejectedReason: null,
      reviewedBy: null,
      reviewedAt: null,
      approvedAt: null,
      completedAt: null,
      createdAt: '2026-11-26T10:00:00.000Z',
      updatedAt: '2026-11-26T11:00:00.000Z',
    });
  });

  it('names an unknown streamer null rather than empty', () => {
    expect(toAdminCampaignJson(aCampaign({ streamerDisplayName: '', streamerHandle: undefined }))).toMatchObject({
      streamerDisplayName: null,
      streamerHandle: null,
    });
  });

  it('computes progressPercent from delivered and target views', () => {
    expect(progressPercent(0, 100_000)).toBe(0);
    expect(progressPercent(100_000, 100_000)).toBe(100);
    expect(progressPercent(1, 3)).toBe(33.3);
    expect(progressPercent(2, 3)).toBe(66.7);
    expect(progressPercent(5, 0)).toBe(0);
  });

  it('takes an optional reason of at most 500 characters to reject', () => {
    expect(rejectCampaignBody.parse({ reason: '  Not a fit ' })).toEqual({ reason: 'Not a fit' });
    expect(rejectCampaignBody.parse({})).toEqual({ reason: undefined });
    expect(rejectCampaignBody.safeParse({ reason: 'x'.repeat(501) }).error?.issues[0]?.message).toBe(
      'Rejection reason must be at most 500 characters',
    );
  });
});
