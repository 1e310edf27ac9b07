import { describe, expect, it } from '@jest/globals';
import { isMeasurable, metricsBatchId, metricsInterval, nextMetricsDue, type MetricsSchedule } from './metrics-schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const schedule: MetricsSchedule = { freshMinutes: 30, weekHours: 6, monthHours: 24, oldDays: 7 };

describe('the metrics schedule (ADR 0029)', () => {
  it.each([
    [0, 30 * MIN],
    [47 * HOUR + 59 * MIN, 30 * MIN],
    [48 * HOUR, 6 * HOUR],
    [7 * DAY - 1, 6 * HOUR],
    [7 * DAY, 24 * HOUR],
    [30 * DAY - 1, 24 * HOUR],
    [30 * DAY, 7 * DAY],
    [400 * DAY, 7 * DAY],
  ])('a post %i ms old is read again after %i ms', (age, interval) => {
    expect(metricsInterval(age, schedule)).toBe(interval);
  });

  it('ages a post from its publication, else its approval, else its creation', () => {
    const readAt = new Date('2026-11-24T12:00:00.000Z');
    const threeDaysAgo = new Date(readAt.getTime() - 3 * DAY);
    const anHourAgo = new Date(readAt.getTime() - HOUR);
    // Published 3 days ago, approved an hour ago: the post's age (publication) decides: 6 h.
    expect(nextMetricsDue({ publishedAt: threeDaysAgo, approvedAt: anHourAgo, createdAt: anHourAgo }, readAt, schedule)).toEqual(
      new Date(readAt.getTime() + 6 * HOUR),
    );
    // Not read yet: the approval decides.
    expect(nextMetricsDue({ publishedAt: null, approvedAt: anHourAgo, createdAt: threeDaysAgo }, readAt, schedule)).toEqual(
      new Date(readAt.getTime() + 30 * MIN),
    );
    expect(nextMetricsDue({ publishedAt: null, approvedAt: null, createdAt: threeDaysAgo }, readAt, schedule)).toEqual(
      new Date(readAt.getTime() + 6 * HOUR),
    );
    // A publication time in the future (clock skew) counts as age 0.
    expect(
      nextMetricsDue({ publishedAt: new Date(readAt.getTime() + HOUR), approvedAt: null, createdAt: readAt }, readAt, schedule),
    ).toEqual(new Date(readAt.getTime() + 30 * MIN));
  });

  it('follows the configured intervals', () => {
    expect(metricsInterval(HOUR, { ...schedule, freshMinutes: 60 })).toBe(HOUR);
    expect(metricsInterval(60 * DAY, { ...schedule, oldDays: 1 })).toBe(DAY);
  });

  it('measures only X posts whose id X can look up', () => {
    expect(isMeasurable({ platform: 'twitter', externalId: '1790000000000000000' })).toBe(true);
    expect(isMeasurable({ platform: 'twitter', externalId: 'abc' })).toBe(false);
    expect(isMeasurable({ platform: 'tiktok', externalId: '123' })).toBe(false);
  });
});

describe('a batch id', () => {
  const due = new Date('2026-11-24T12:00:00.000Z');
  const a = { submissionId: '11111111-1111-4111-8111-111111111111', externalId: '1', dueAt: due };
  const b = { submissionId: '22222222-2222-4222-8222-222222222222', externalId: '2', dueAt: new Date(due.getTime() + 1000) };

  it('is the same for the same posts at the same due times, in any order, and has no colon', () => {
    expect(metricsBatchId([a, b])).toBe(metricsBatchId([b, a]));
    expect(metricsBatchId([a, b])).toMatch(/^[\w.-]{1,128}$/);
    expect(metricsBatchId([a, b])).not.toContain(':');
  });

  it('differs for other posts, or the same posts due again later (a lost job queued again)', () => {
    expect(metricsBatchId([a])).not.toBe(metricsBatchId([a, b]));
    expect(metricsBatchId([{ ...a, dueAt: new Date(due.getTime() + HOUR) }])).not.toBe(metricsBatchId([a]));
  });
});
