import { createHash } from 'node:crypto';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The configured intervals of ADR 0029's schedule (METRICS_* variables). */
export interface MetricsSchedule {
  /** A post younger than 48 hours: every this many minutes (at most 60: fresh posts are read at least hourly). */
  freshMinutes: number;
  /** Younger than 7 days. */
  weekHours: number;
  /** Younger than 30 days. */
  monthHours: number;
  /** Older. */
  oldDays: number;
}

/** How long to wait before reading a post's metrics again, by its age (from publishedAt, else approval). */
export function metricsInterval(ageMs: number, schedule: MetricsSchedule): number {
  if (ageMs < 48 * HOUR) return schedule.freshMinutes * MINUTE;
  if (ageMs < 7 * DAY) return schedule.weekHours * HOUR;
  if (ageMs < 30 * DAY) return schedule.monthHours * HOUR;
  return schedule.oldDays * DAY;
}

/** What the next due time is computed from. */
export interface ScheduledPost {
  publishedAt: Date | null;
  approvedAt: Date | null;
  createdAt: Date;
}

/** When a post read at `readAt` is due again. */
export function nextMetricsDue(post: ScheduledPost, readAt: Date, schedule: MetricsSchedule): Date {
  const born = post.publishedAt ?? post.approvedAt ?? post.createdAt;
  return new Date(readAt.getTime() + metricsInterval(Math.max(0, readAt.getTime() - born.getTime()), schedule));
}

/** X's post ids are decimal snowflakes: only such posts can be looked up (the metrics queue's contract). */
export function isMeasurable(post: { platform: string; externalId: string }): boolean {
  return post.platform === 'twitter' && /^\d{1,19}$/.test(post.externalId);
}

/** A post the scheduler claimed: its id, X's id, and the due time it was claimed for. */
export interface DuePost {
  submissionId: string;
  externalId: string;
  dueAt: Date;
}

/**
 * The job id of a batch: the same posts claimed for the same due times always give the same id, so a
 * batch queued again after its transaction failed to commit adds nothing; claimed again later (a lost
 * job, due again after the stale timeout) it is a new id. Only `[\w.-]`: BullMQ refuses ':' in ids.
 */
export function metricsBatchId(posts: readonly DuePost[]): string {
  const keys = posts.map((p) => `${p.submissionId}@${p.dueAt.getTime()}`).sort();
  const slot = Math.max(...posts.map((p) => p.dueAt.getTime()));
  const digest = createHash('sha256').update(keys.join(',')).digest('hex').slice(0, 32);
  return `metrics-${Math.floor(slot / 1000)}-${digest}`;
}
