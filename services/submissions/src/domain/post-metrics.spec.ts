import { describe, expect, it } from '@jest/globals';
import { AT, submission } from '../../test/support/unit-fixtures.js';
import {
  applyFoundPost,
  applyMissingPost,
  applyRisk,
  historyPoints,
  takesMetrics,
  type FoundPost,
  type MetricsRules,
} from './post-metrics.js';
import { toSnapshot, toSubmissionMessage } from './submission.mapper.js';

const rules: MetricsRules = { schedule: { freshMinutes: 30, weekHours: 6, monthHours: 24, oldDays: 7 }, missingLimit: 3 };
const MIN = 60_000;
const approvedAt = new Date(AT.getTime() - 10 * MIN);
const fetchedAt = new Date(AT.getTime() + MIN);
const now = new Date(AT.getTime() + 2 * MIN);

function approved(patch: Parameters<typeof submission>[0] = {}) {
  return submission({ status: 'approved', approvedAt, metricsDueAt: AT, metricsQueuedAt: AT, verificationCode: 'CLIP-7KQ2MX', ...patch });
}

function found(patch: Partial<FoundPost> = {}, metrics: Partial<FoundPost['metrics']> = {}): FoundPost {
  return {
    submissionId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
    externalId: '1790000000000000000',
    outcome: 'found',
    metrics: { views: 1200, likes: 30, retweets: 4, replies: 2, quotes: 1, bookmarks: 5, ...metrics },
    publishedAt: new Date(AT.getTime() - 60 * MIN).toISOString(),
    authorId: '555',
    text: 'my clip',
    raw: { id: '1790000000000000000', public_metrics: { impression_count: 1200 } },
    ...patch,
  };
}

describe('applying a read that found the post', () => {
  it('stores what X gave; while unverified the snapshot counts 0 and nothing is published', () => {
    const s = approved();
    const updatedAt = s.updatedAt;
    const applied = applyFoundPost(s, found(), fetchedAt, null, rules, now);
    expect(applied).toEqual({ publish: false, previousViews: 0, verifiedNow: false });
    expect(s).toMatchObject({
      views: 1200,
      likes: 30,
      retweets: 4,
      replies: 2,
      quoteCount: 1,
      bookmarkCount: 5,
      publishedAt: new Date(AT.getTime() - 60 * MIN),
      lastMetricsFetch: fetchedAt,
      postStatus: 'found',
      metricsMissingCount: 0,
      metricsQueuedAt: null,
      verifiedAt: null,
      updatedAt,
      rawMetrics: { id: '1790000000000000000', public_metrics: { impression_count: 1200 } },
    });
    // An hour-old post: due again in 30 minutes.
    expect(s.metricsDueAt).toEqual(new Date(fetchedAt.getTime() + 30 * MIN));
    expect(toSnapshot(s, 60)).toMatchObject({ views: 0, likes: 0, retweets: 0, replies: 0, verifiedAt: null });
    // Its owner sees the counts X gave, the code and the read.
    expect(toSubmissionMessage(s, 60)).toMatchObject({
      views: 1200,
      likes: 30,
      verificationCode: 'CLIP-7KQ2MX',
      lastMetricsFetch: fetchedAt.toISOString(),
    });
    expect(toSubmissionMessage(s, 60).verifiedAt).toBeUndefined();
  });

  it('verifies it by the code in its text: the counts start to count, updatedAt moves, it is published', () => {
    const s = approved();
    const applied = applyFoundPost(s, found({ text: 'Clip it! clip-7kq2mx' }), fetchedAt, null, rules, now);
    expect(applied).toEqual({ publish: true, previousViews: 0, verifiedNow: true });
    expect(s.verifiedAt).toEqual(fetchedAt);
    expect(s.updatedAt).toEqual(now);
    expect(toSnapshot(s, 60)).toMatchObject({
      views: 1200,
      likes: 30,
      retweets: 4,
      replies: 2,
      verifiedAt: fetchedAt.toISOString(),
      updatedAt: now.toISOString(),
    });
  });

  it('verifies it by its author being the submitter’s linked X account, not by another account', () => {
    const other = approved();
    expect(applyFoundPost(other, found({ authorId: '555' }), fetchedAt, '777', rules, now).verifiedNow).toBe(false);
    const s = approved();
    expect(applyFoundPost(s, found({ authorId: '555' }), fetchedAt, '555', rules, now).verifiedNow).toBe(true);
  });

  it('once verified, publishes when a counted value changes (with what counted before), and not when only quotes or bookmarks move', () => {
    const s = approved({ verifiedAt: AT, views: 1000, likes: 30, retweets: 4, replies: 2, updatedAt: AT });
    expect(applyFoundPost(s, found(), fetchedAt, null, rules, now)).toEqual({ publish: true, previousViews: 1000, verifiedNow: false });
    expect(s.verifiedAt).toEqual(AT);
    const later = new Date(fetchedAt.getTime() + 30 * MIN);
    const before = s.updatedAt;
    expect(applyFoundPost(s, found({}, { quotes: 9, bookmarks: 9 }), later, null, rules, new Date(later.getTime() + 1)).publish).toBe(
      false,
    );
    expect(s.updatedAt).toEqual(before);
    expect(s).toMatchObject({ quoteCount: 9, bookmarkCount: 9, lastMetricsFetch: later });
  });

  it('moves updatedAt strictly forward even when the clock reads earlier than the last change', () => {
    const s = approved({ verifiedAt: AT, views: 1, updatedAt: new Date(now.getTime() + 5000) });
    applyFoundPost(s, found(), fetchedAt, null, rules, now);
    expect(s.updatedAt).toEqual(new Date(now.getTime() + 5001));
  });

  it('ends a miss streak', () => {
    const s = approved({ postStatus: 'missing', metricsMissingCount: 2 });
    applyFoundPost(s, found(), fetchedAt, null, rules, now);
    expect(s).toMatchObject({ postStatus: 'found', metricsMissingCount: 0 });
  });
});

describe('the view-risk assessment on the submission (ADR 0049)', () => {
  const jump = { signal: 'jump' as const, points: 70, reason: 'Views jumped.' };
  const low = { signal: 'engagement' as const, points: 30, reason: 'Low engagement.' };

  it('keeps the score and reasons, strongest first; a move of the score moves updatedAt, a first 0 does not', () => {
    const s = approved();
    const updatedAt = s.updatedAt;
    expect(applyRisk(s, null, now)).toBe(false);
    expect(s).toMatchObject({ riskScore: null, riskReasons: null, updatedAt });
    expect(applyRisk(s, { score: 0, findings: [] }, now)).toBe(false);
    expect(s).toMatchObject({ riskScore: 0, riskReasons: [], updatedAt });
    expect(applyRisk(s, { score: 100, findings: [jump, low] }, now)).toBe(true);
    expect(s).toMatchObject({ riskScore: 100, riskReasons: ['Views jumped.', 'Low engagement.'], updatedAt: now });
    // The same score with newer figures in its words: stored, nothing to publish.
    expect(applyRisk(s, { score: 100, findings: [{ ...jump, reason: 'Views jumped again.' }, low] }, now)).toBe(false);
    expect(s.riskReasons).toEqual(['Views jumped again.', 'Low engagement.']);
  });

  it('is in the snapshot and the gRPC answer, under review at or above the threshold', () => {
    const s = approved({ riskScore: 60, riskReasons: ['Views jumped.'] });
    expect(toSnapshot(s, 60).risk).toEqual({ score: 60, reasons: ['Views jumped.'], underReview: true });
    expect(toSnapshot(s, 61).risk).toEqual({ score: 60, reasons: ['Views jumped.'], underReview: false });
    expect(toSubmissionMessage(s, 60).risk).toEqual({ score: 60, reasons: ['Views jumped.'], underReview: true });
    expect(toSnapshot(approved(), 60).risk).toBeNull();
    expect(toSubmissionMessage(approved(), 60).risk).toBeUndefined();
  });
});

describe('applying a read that did not find the post', () => {
  it('keeps the counts, counts the miss, and stops scheduling after the limit in a row', () => {
    const s = approved({ verifiedAt: AT, views: 800, lastMetricsFetch: AT });
    applyMissingPost(s, fetchedAt, rules);
    expect(s).toMatchObject({
      views: 800,
      postStatus: 'missing',
      metricsMissingCount: 1,
      lastMetricsFetch: fetchedAt,
      metricsQueuedAt: null,
    });
    expect(s.metricsDueAt).toEqual(new Date(fetchedAt.getTime() + 30 * MIN));
    applyMissingPost(s, new Date(fetchedAt.getTime() + 1), rules);
    expect(s.metricsDueAt).not.toBeNull();
    applyMissingPost(s, new Date(fetchedAt.getTime() + 2), rules);
    expect(s).toMatchObject({ metricsMissingCount: 3, metricsDueAt: null });
  });
});

describe('which reads apply', () => {
  it('only to an approved submission of that post, and only a read later than the last one', () => {
    expect(takesMetrics(approved(), '1790000000000000000', fetchedAt)).toBe(true);
    expect(takesMetrics(approved({ lastMetricsFetch: fetchedAt }), '1790000000000000000', fetchedAt)).toBe(false);
    expect(takesMetrics(approved({ lastMetricsFetch: new Date(fetchedAt.getTime() + 1) }), '1790000000000000000', fetchedAt)).toBe(false);
    expect(takesMetrics(approved({ lastMetricsFetch: new Date(fetchedAt.getTime() - 1) }), '1790000000000000000', fetchedAt)).toBe(true);
    expect(takesMetrics(approved({ status: 'rejected' }), '1790000000000000000', fetchedAt)).toBe(false);
    expect(takesMetrics(approved({ status: 'pending' }), '1790000000000000000', fetchedAt)).toBe(false);
    expect(takesMetrics(approved(), '1', fetchedAt)).toBe(false);
  });
});

describe('the history', () => {
  it('is drawn oldest first, whatever order it was read in', () => {
    const at = (m: number) => new Date(AT.getTime() + m * MIN);
    const row = (m: number, views: number) => ({ fetchedAt: at(m), views, likes: views / 10, retweets: 1, replies: 0 });
    expect(historyPoints([row(60, 300), row(0, 100), row(30, 200)])).toEqual([
      { at: at(0).toISOString(), views: 100, likes: 10, retweets: 1, replies: 0 },
      { at: at(30).toISOString(), views: 200, likes: 20, retweets: 1, replies: 0 },
      { at: at(60).toISOString(), views: 300, likes: 30, retweets: 1, replies: 0 },
    ]);
    expect(historyPoints([])).toEqual([]);
  });
});
