import { describe, expect, it } from '@jest/globals';
import { disabledReason, newWebhookSecret, retryDelayMs } from './webhook-rules.js';

describe('webhook rules', () => {
  it('makes whsec_ secrets of 24 random bytes, each new', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('backs off from 30 s, doubling, at most 6 h apart: about 20 attempts over 3 days', () => {
    const base = 30_000;
    const max = 6 * 3600_000;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, base, max))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(10, base, max)).toBe(15_360_000);
    expect(retryDelayMs(11, base, max)).toBe(max);
    expect(retryDelayMs(1000, base, max)).toBe(max);
    let elapsed = 0;
    let attempts = 1;
    while (elapsed < 3 * 86_400_000) elapsed += retryDelayMs(attempts++, base, max);
    expect(attempts).toBeGreaterThanOrEqual(18);
    expect(attempts).toBeLessThanOrEqual(22);
  });

  it('says why an endpoint was disabled: since when, and its last failure', () => {
    const since = new Date('2026-11-27T10:00:00Z');
    expect(disabledReason(since, { statusCode: 503, error: null })).toBe(
      'Deliveries failed from 2026-11-27T10:00:00.000Z on; the last one: it answered HTTP 503',
    );
    expect(disabledReason(since, { statusCode: null, error: 'Connection refused' })).toContain('the last one: Connection refused');
  });
});
