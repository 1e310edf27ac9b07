import { describe, expect, it } from '@jest/globals';
import { sparkline, thresholdText, thresholdY, valueText } from './system-metrics-view.js';

describe('system metrics words', () => {
  it('words readiness as ready, degraded or not ready, counts with their unit, and an unmeasured value as such', () => {
    expect(valueText({ metricType: 'readiness', value: 1, unit: 'ready' })).toBe('Ready');
    expect(valueText({ metricType: 'readiness', value: 0.5, unit: 'ready' })).toBe('Degraded');
    expect(valueText({ metricType: 'readiness', value: 0, unit: 'ready' })).toBe('Not ready');
    expect(valueText({ metricType: 'queue_depth', value: 1234, unit: 'jobs' })).toBe('1,234 jobs');
    expect(valueText({ metricType: 'consumer_lag', value: null, unit: 'messages' })).toBe('Not measured');
  });

  it('says the threshold and where it turns critical', () => {
    expect(thresholdText({ metricType: 'queue_depth', threshold: 100, unit: 'jobs', metadata: { critical: 1000 } })).toBe(
      'Threshold: 100 jobs (critical at 1,000)',
    );
    expect(thresholdText({ metricType: 'readiness', threshold: 1, unit: 'ready', metadata: {} })).toMatch(/ready/);
  });
});

describe('sparkline', () => {
  const end = Date.parse('2026-11-28T12:00:00.000Z');
  const at = (minutesBefore: number) => new Date(end - minutesBefore * 60_000).toISOString();

  it('draws time across and values up to the largest, with a gap where a bucket was not measured', () => {
    const line = sparkline(
      [
        { at: at(24 * 60), value: 0 },
        { at: at(12 * 60), value: 10 },
        { at: at(60), value: null },
        { at: at(0), value: 5 },
      ],
      { width: 104, height: 24, end },
    );
    // x from 2 to 102, y from 22 (0) to 2 (10).
    expect(line.path).toBe('M2 22 L52 2 M102 12');
    expect(line.last).toEqual({ x: 102, y: 12 });
  });

  it('scales to the threshold when the values stay under it, and places its line', () => {
    const metric = { metricType: 'queue_depth' as const, threshold: 100, series: [{ at: at(0), value: 50 }] };
    expect(sparkline(metric.series, { width: 104, height: 24, end, threshold: 100 }).path).toBe('M102 12');
    expect(thresholdY(metric, 24)).toBe(2);
    expect(thresholdY({ ...metric, metricType: 'readiness' }, 24)).toBeNull();
  });

  it('draws nothing for an empty series', () => {
    expect(sparkline([], { width: 100, height: 20, end })).toEqual({ path: '', last: null });
  });
});
