import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { cachedIsoTime } from './logger.js';

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
