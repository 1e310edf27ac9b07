import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startInMemoryTracing, type InMemoryTracing } from '@clipit/testing';
import { pino } from 'pino';
import { runWithCorrelation } from '../context/correlation.js';
import { cachedIsoTime, createLogger } from './logger.js';

describe('cachedIsoTime', () => {
  it('writes what pino.stdTimeFunctions.isoTime writes, formatting each millisecond once', () => {
    let now = Date.parse('2026-11-26T01:02:03.004Z');
    const time = cachedIsoTime(() => now);
    const first = time();
    expect(first).toBe(',"time":"2026-11-26T01:02:03.004Z"');
    expect(time()).toBe(first); // same millisecond: the same string
    now += 1;
    expect(time()).toBe(',"time":"2026-11-26T01:02:03.005Z"');
    const real = cachedIsoTime()();
    expect(real).toMatch(/^,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
    expect(pino.stdTimeFunctions.isoTime().length).toBe(real.length);
  });
});

describe('log lines and traces (ADR 0054)', () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('logger-spec', 'info', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const last = () => lines.at(-1)!;

  it('carries no trace fields while tracing is off (nothing registered), and keeps the correlation id', () => {
    runWithCorrelation('corr-off', () => logger.info('off'));
    expect(last()).toMatchObject({ msg: 'off', correlationId: 'corr-off' });
    expect(last()).not.toHaveProperty('traceId');
    expect(last()).not.toHaveProperty('spanId');
  });

  describe('with tracing on', () => {
    let tracing: InMemoryTracing;
    beforeAll(async () => {
      tracing = await startInMemoryTracing();
    });
    afterAll(() => tracing.stop());

    it('adds the active span’s traceId and spanId inside a span, beside the correlation id, and nothing outside one', async () => {
      const span = await tracing.traced((s) => {
        runWithCorrelation('corr-on', () => logger.info('inside'));
        return s;
      });
      const { traceId, spanId } = span.spanContext();
      expect(last()).toMatchObject({ msg: 'inside', correlationId: 'corr-on', traceId, spanId });

      logger.info('outside');
      expect(last()).toEqual(expect.objectContaining({ msg: 'outside' }));
      expect(last()).not.toHaveProperty('traceId');
      expect(last()).not.toHaveProperty('spanId');
      expect(last()).not.toHaveProperty('correlationId');
    });
  });
});
