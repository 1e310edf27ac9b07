import { describe, expect, it } from '@jest/globals';
import {
  METRIC_KINDS,
  parseHealthTargets,
  readinessValue,
  retentionCutoff,
  sample,
  samplingSlot,
  statusOf,
  unmeasured,
} from './system-metrics.js';

describe('system metric status', () => {
  it('counts are ok up to the threshold, a warning above it, critical from the critical level on', () => {
    const limits = { worse: 'higher', threshold: 100, critical: 1000 } as const;
    expect(statusOf(0, limits)).toBe('ok');
    expect(statusOf(100, limits)).toBe('ok');
    expect(statusOf(101, limits)).toBe('warning');
    expect(statusOf(999, limits)).toBe('warning');
    expect(statusOf(1000, limits)).toBe('critical');
  });

  it('any dead letter is a warning, fifty are critical', () => {
    expect(sample('dead_letters', 'S_DLQ', 0).status).toBe('ok');
    expect(sample('dead_letters', 'S_DLQ', 1).status).toBe('warning');
    expect(sample('dead_letters', 'S_DLQ', 50).status).toBe('critical');
  });

  it('readiness is worse when lower: ready ok, degraded a warning, not ready critical', () => {
    expect(readinessValue(200, { status: 'ok' })).toBe(1);
    expect(readinessValue(200, { status: 'degraded' })).toBe(0.5);
    expect(readinessValue(503, { status: 'unavailable' })).toBe(0);
    expect(readinessValue(404, undefined)).toBe(0);
    expect([1, 0.5, 0].map((v) => sample('readiness', 'feed', v).status)).toEqual(['ok', 'warning', 'critical']);
  });

  it('a sample carries its unit, threshold and critical level; one that could not be measured is critical with its error', () => {
    expect(sample('consumer_lag', 'feed', 12, { numPending: 12 })).toEqual({
      metricType: 'consumer_lag',
      metricName: 'feed',
      value: 12,
      unit: 'messages',
      status: 'ok',
      threshold: METRIC_KINDS.consumer_lag.limits.threshold,
      metadata: { numPending: 12, critical: METRIC_KINDS.consumer_lag.limits.critical },
    });
    expect(unmeasured('queue_depth', 'media', new Error('Redis: no answer within 3000 ms'))).toMatchObject({
      value: null,
      status: 'critical',
      unit: 'jobs',
      metadata: { error: 'Redis: no answer within 3000 ms' },
    });
  });
});

describe('system metric retention and slots', () => {
  it('keeps 7 days: the cutoff is exactly 7 days before now', () => {
    const now = new Date('2026-11-28T12:00:00.000Z');
    expect(retentionCutoff(now).toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });

  it('puts every moment of one interval in the same slot, and the next interval in the next', () => {
    const minute = 60_000;
    const a = samplingSlot(new Date('2026-11-28T12:00:00.000Z'), minute);
    expect(samplingSlot(new Date('2026-11-28T12:00:59.999Z'), minute)).toEqual(a);
    expect(samplingSlot(new Date('2026-11-28T12:01:00.000Z'), minute).getTime()).toBe(a.getTime() + minute);
  });
});

describe('health targets', () => {
  it('reads name=url pairs and refuses a bad entry by name', () => {
    expect(parseHealthTargets('feed=http://feed:8107/, gateway=http://gateway:80')).toEqual([
      { name: 'feed', url: 'http://feed:8107' },
      { name: 'gateway', url: 'http://gateway:80' },
    ]);
    expect(parseHealthTargets('')).toEqual([]);
    expect(() => parseHealthTargets('feed')).toThrow(/"feed" must be name=http/);
    expect(() => parseHealthTargets('feed=ftp://x')).toThrow(/http:\/\//);
    expect(() => parseHealthTargets('feed=http://a:1,feed=http://b:2')).toThrow(/listed twice/);
  });
});
