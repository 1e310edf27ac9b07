import type { FetchedPost } from '@clipit/contracts';
import type { PostStatus, SubmissionEntity } from '../entities/submission.entity.js';
import { nextMetricsDue, type MetricsSchedule } from './metrics-schedule.js';
import { provesOwnership } from './verification.js';
import type { ViewRiskAssessment } from './view-risk.js';

export type FoundPost = Extract<FetchedPost, { outcome: 'found' }>;

/** The counts read models count (the snapshot's): the stored ones once the post is verified, 0 until then. */
export interface CountedMetrics {
  views: number;
  likes: number;
  retweets: number;
  replies: number;
}

export function countedMetrics(s: Pick<SubmissionEntity, 'verifiedAt' | 'views' | 'likes' | 'retweets' | 'replies'>): CountedMetrics {
  if (!s.verifiedAt) return { views: 0, likes: 0, retweets: 0, replies: 0 };
  return { views: s.views, likes: s.likes, retweets: s.retweets, replies: s.replies };
}

const sameCounts = (a: CountedMetrics, b: CountedMetrics) =>
  a.views === b.views && a.likes === b.likes && a.retweets === b.retweets && a.replies === b.replies;

/** What reading a post's metrics may apply to: the rules that hold whatever X answered. */
export interface MetricsRules {
  schedule: MetricsSchedule;
  /** Misses in a row after which the post is no longer scheduled. */
  missingLimit: number;
}

/**
 * Whether X's answer of `fetchedAt` is news for this submission: it must still be approved and the
 * read must be later than the last one applied, so a replayed or out-of-order answer changes nothing.
 */
export function takesMetrics(s: SubmissionEntity, externalId: string, fetchedAt: Date): boolean {
  if (s.status !== 'approved' || s.externalId !== externalId) return false;
  return !s.lastMetricsFetch || s.lastMetricsFetch.getTime() < fetchedAt.getTime();
}

/** What applying one read did: whether the counted values moved (or the post was just verified), what counted before. */
export interface MetricsApplied {
  publish: boolean;
  previousViews: number;
  verifiedNow: boolean;
}

/**
 * A read that found the post: its counts, publication time and raw object stored; verified when its
 * text holds the code or its author is the submitter's linked X account; a miss streak ends; due again
 * by the schedule. `updatedAt` moves (strictly forward) when what the snapshot counts changed.
 */
export function applyFoundPost(
  s: SubmissionEntity,
  post: FoundPost,
  fetchedAt: Date,
  linkedXUserId: string | null,
  rules: MetricsRules,
  now: Date,
): MetricsApplied {
  const before = countedMetrics(s);
  const { metrics } = post;
  Object.assign(s, {
    views: metrics.views,
    likes: metrics.likes,
    retweets: metrics.retweets,
    replies: metrics.replies,
    quoteCount: metrics.quotes,
    bookmarkCount: metrics.bookmarks,
    publishedAt: post.publishedAt ? new Date(post.publishedAt) : s.publishedAt,
    lastMetricsFetch: fetchedAt,
    rawMetrics: post.raw,
    postStatus: 'found' satisfies PostStatus,
    metricsMissingCount: 0,
    metricsQueuedAt: null,
  });
  const verifiedNow = !s.verifiedAt && s.verificationCode !== null && provesOwnership(post, s.verificationCode, linkedXUserId);
  if (verifiedNow) s.verifiedAt = fetchedAt;
  s.metricsDueAt = nextMetricsDue(s, fetchedAt, rules.schedule);
  const publish = verifiedNow || !sameCounts(before, countedMetrics(s));
  if (publish) touch(s, now);
  return { publish, previousViews: before.views, verifiedNow };
}

/**
 * A read that did not find the post (deleted, protected, suspended author): the last counts stay, the
 * miss is counted, and after `missingLimit` misses in a row the post is no longer scheduled.
 */
export function applyMissingPost(s: SubmissionEntity, fetchedAt: Date, rules: MetricsRules): void {
  s.metricsMissingCount += 1;
  s.postStatus = 'missing';
  s.lastMetricsFetch = fetchedAt;
  s.metricsQueuedAt = null;
  s.metricsDueAt = s.metricsMissingCount >= rules.missingLimit ? null : nextMetricsDue(s, fetchedAt, rules.schedule);
}

/**
 * The post's view-risk assessment (ADR 0049) kept on the submission: its score and reasons, both null while
 * it is not judged yet. Returns whether the score moved (a first judgement of 0 does not count), in which
 * case `updatedAt` moves so read models take the snapshot that says so.
 */
export function applyRisk(s: SubmissionEntity, assessment: ViewRiskAssessment | null, now: Date): boolean {
  const before = s.riskScore;
  s.riskScore = assessment ? assessment.score : null;
  s.riskReasons = assessment ? assessment.findings.map((f) => f.reason) : null;
  const moved = (before ?? 0) !== (s.riskScore ?? 0);
  if (moved) touch(s, now);
  return moved;
}

/** An approved post is read right away (ADR 0029), when X can be asked about it. */
export function scheduleFirstRead(s: SubmissionEntity, now: Date, measurable: boolean): void {
  s.metricsDueAt = measurable ? now : null;
  s.metricsQueuedAt = null;
}

/** updatedAt orders a submission's snapshots in every read model: it only ever moves forward. */
function touch(s: SubmissionEntity, now: Date): void {
  s.updatedAt = new Date(Math.max(now.getTime(), s.updatedAt.getTime() + 1));
}

/** One point of the owner's chart. */
export interface HistoryPoint {
  at: string;
  views: number;
  likes: number;
  retweets: number;
  replies: number;
}

/** A history read in any order, as the chart draws it: oldest first, one point per read. */
export function historyPoints(
  rows: ReadonlyArray<{ fetchedAt: Date; views: number; likes: number; retweets: number; replies: number }>,
): HistoryPoint[] {
  return [...rows]
    .sort((a, b) => a.fetchedAt.getTime() - b.fetchedAt.getTime())
    .map((r) => ({ at: r.fetchedAt.toISOString(), views: r.views, likes: r.likes, retweets: r.retweets, replies: r.replies }));
}
