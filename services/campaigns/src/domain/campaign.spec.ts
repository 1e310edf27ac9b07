import { describe, expect, it } from '@jest/globals';
import {
  clipUnderReview,
  countingWindow,
  countsTowardCampaigns,
  newCampaign,
  progress,
  progressStep,
  progressToAnnounce,
  reviewed,
  toCampaignMessage,
  toCampaignSnapshot,
  verifiedViews,
  withProgress,
} from './campaign.js';

const at = new Date('2026-11-26T10:00:00.000Z');
const later = new Date('2026-11-27T10:00:00.000Z');
const draft = {
  title: 'Launch week push',
  description: 'Clips of the launch stream, posted on X.',
  targetViews: 100_000,
  budgetAmount: 500,
  contentLink: null,
};
const pending = newCampaign('0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10', '2d9f6e30-8c9f-4e3b-9d7b-4b5c3f9e1c32', draft, at);

describe('campaign rules', () => {
  it('makes a pending campaign with nothing delivered and the budget as dollars with cents', () => {
    expect(pending).toMatchObject({
      status: 'pending',
      deliveredViews: 0,
      announcedProgressStep: 0,
      budgetAmount: '500.00',
      approvedAt: null,
    });
    expect(toCampaignMessage(pending)).toMatchObject({
      budgetAmount: '500.00',
      targetViews: 100_000,
      contentLink: undefined,
      approvedAt: undefined,
    });
    expect(toCampaignSnapshot(pending)).toMatchObject({ contentLink: null, approvedAt: null, createdAt: at.toISOString() });
  });

  it('approves from now (views count from its approval) or rejects with the reason', () => {
    expect(reviewed(pending, 'approve', 'admin-1', null, later)).toMatchObject({
      status: 'approved',
      approvedAt: later,
      reviewedAt: later,
      reviewedBy: 'admin-1',
    });
    expect(reviewed(pending, 'reject', 'admin-1', 'Not a fit', later)).toMatchObject({
      status: 'rejected',
      rejectedReason: 'Not a fit',
      approvedAt: null,
    });
  });

  it('delivers views capped at the target, and completes on reaching it', () => {
    expect(progress(100_000, 0)).toEqual({ deliveredViews: 0, completed: false });
    expect(progress(100_000, 99_999)).toEqual({ deliveredViews: 99_999, completed: false });
    expect(progress(100_000, 100_000)).toEqual({ deliveredViews: 100_000, completed: true });
    expect(progress(100_000, 250_000)).toEqual({ deliveredViews: 100_000, completed: true });
    const running = reviewed(pending, 'approve', 'admin-1', null, at);
    expect(withProgress(running, 40_000, later)).toMatchObject({ status: 'approved', deliveredViews: 40_000, completedAt: null });
    expect(withProgress(running, 120_000, later)).toMatchObject({ status: 'completed', deliveredViews: 100_000, completedAt: later });
  });

  it('counts whole 10 % steps, and tells each once: the highest newly crossed, below the target', () => {
    expect([0, 9_999, 10_000, 35_000, 99_999, 100_000].map((v) => progressStep(v, 100_000))).toEqual([0, 0, 1, 3, 9, 10]);
    expect(progressStep(333_333, 3_333_333)).toBe(0);
    const running = reviewed(pending, 'approve', 'admin-1', null, at);
    const at35 = withProgress(running, 35_000, later);
    expect(at35.announcedProgressStep).toBe(3);
    expect(progressToAnnounce(running, at35)).toBe(30);
    const fellBack = withProgress(at35, 12_000, later);
    expect(fellBack.announcedProgressStep).toBe(3);
    expect(progressToAnnounce(at35, fellBack)).toBeUndefined();
    expect(progressToAnnounce(fellBack, withProgress(fellBack, 39_000, later))).toBeUndefined();
    expect(progressToAnnounce(fellBack, withProgress(fellBack, 40_000, later))).toBe(40);
    expect(progressToAnnounce(at35, withProgress(at35, 100_000, later))).toBeUndefined();
  });

  it('shows the streamer’s names when known', () => {
    expect(toCampaignMessage(pending, { displayName: 'Sam', twitterUsername: 'sam' })).toMatchObject({
      streamerDisplayName: 'Sam',
      streamerTwitterUsername: 'sam',
    });
    expect(toCampaignMessage(pending, { displayName: null, twitterUsername: null }).streamerDisplayName).toBeUndefined();
  });
});

describe('what delivers a paid campaign’s views (spec 02 §6, ADR 0041)', () => {
  it('counts a gold clipper’s clips only: bronze, silver and an unknown standing do not', () => {
    expect(countsTowardCampaigns('gold')).toBe(true);
    expect(countsTowardCampaigns('silver')).toBe(false);
    expect(countsTowardCampaigns('bronze')).toBe(false);
    expect(countsTowardCampaigns(undefined)).toBe(false);
  });
});

describe('verified views (issue 37)', () => {
  const running = { ...reviewed(pending, 'approve', 'admin', null, at), deliveredViews: 40_000 };
  const completed = { ...withProgress(running, 100_000, later) };

  it('holds out a clip whose views are under review or that is flagged, as its snapshot says', () => {
    expect(clipUnderReview({ risk: null, hold: null })).toBe(false);
    expect(clipUnderReview({})).toBe(false);
    expect(clipUnderReview({ risk: { score: 40, reasons: ['a jump'], underReview: false }, hold: null })).toBe(false);
    expect(clipUnderReview({ risk: { score: 80, reasons: ['a jump'], underReview: true }, hold: null })).toBe(true);
    expect(clipUnderReview({ risk: null, hold: { causes: ['reupload'], reasons: ['It re-uploads a clip.'] } })).toBe(true);
  });

  it('counts approvals from the approval on, until the completion once completed, none before approval or when rejected', () => {
    expect(countingWindow(pending)).toBeUndefined();
    expect(countingWindow(reviewed(pending, 'reject', 'admin', 'no', at))).toBeUndefined();
    expect(countingWindow(running)).toEqual({ since: at, until: null });
    expect(completed.status).toBe('completed');
    expect(countingWindow(completed)).toEqual({ since: at, until: later });
  });

  it('is the views not under review, never above the delivered views, and 0 before approval', () => {
    expect(verifiedViews(running, 25_000)).toBe(25_000);
    expect(verifiedViews(running, 55_000)).toBe(40_000);
    expect(verifiedViews(completed, 250_000)).toBe(100_000);
    expect(verifiedViews(running, 0)).toBe(0);
    expect(verifiedViews({ ...pending, deliveredViews: 10 }, 5)).toBe(0);
  });
});
