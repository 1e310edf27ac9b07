// The attempt limiter against the real Redis: per IP, per handle, shared by two limiter instances
// (two gateway replicas), and the window running out.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deleteKeysWithPrefix, isolatedNames, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { RateLimiter, type RateLimitOptions } from '../../src/rate-limit/rate-limiter.js';

describe('RateLimiter (real Redis)', () => {
  const names = isolatedNames('gateway-rl');
  let redisA: Redis;
  let redisB: Redis;

  beforeAll(() => {
    redisA = new Redis(testInfra().redisUrl);
    redisB = new Redis(testInfra().redisUrl);
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redisA, names.redisKeyPrefix);
    redisA.disconnect();
    redisB.disconnect();
  });

  let n = 0;
  /** A limiter with its own key prefix, so each test starts from zero. */
  function limiter(redis: Redis, patch: Partial<RateLimitOptions> = {}, prefix = `${names.redisKeyPrefix}${++n}:`): RateLimiter {
    return new RateLimiter(redis, { keyPrefix: prefix, windowSeconds: 60, maxPerIp: 5, maxPerHandle: 3, ...patch });
  }

  async function hits(l: RateLimiter, count: number, ip: string, handle?: string) {
    const verdicts = [];
    for (let i = 0; i < count; i++) verdicts.push(await l.hit('login', ip, handle));
    return verdicts.map((v) => v.allowed);
  }

  it('allows maxPerIp attempts from one IP, then refuses with the time left in the window', async () => {
    const l = limiter(redisA);
    const handles = ['a', 'b', 'c', 'd', 'e', 'f'];
    const allowed = [];
    for (const h of handles) allowed.push((await l.hit('login', '203.0.113.7', h)).allowed);
    expect(allowed).toEqual([true, true, true, true, true, false]);
    const verdict = await l.hit('login', '203.0.113.7', 'g');
    expect(verdict).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    if (!verdict.allowed) expect(verdict.retryAfterSeconds).toBeGreaterThan(55);
    // Another IP is not affected.
    expect((await l.hit('login', '203.0.113.8', 'h')).allowed).toBe(true);
  });

  it('allows maxPerHandle attempts on one handle from any IPs, case and @ ignored', async () => {
    const l = limiter(redisA);
    const allowed = [];
    for (const [ip, handle] of [
      ['10.0.0.1', 'Alice'],
      ['10.0.0.2', '@alice'],
      ['10.0.0.3', 'ALICE '],
      ['10.0.0.4', 'alice'],
    ] as const) {
      allowed.push((await l.hit('login', ip, handle)).allowed);
    }
    expect(allowed).toEqual([true, true, true, false]);
    expect((await l.hit('login', '10.0.0.5', 'bob')).allowed).toBe(true);
  });

  it('counts each action on its own', async () => {
    const l = limiter(redisA, { maxPerHandle: 1 });
    expect((await l.hit('login', '10.1.0.1', 'carol')).allowed).toBe(true);
    expect((await l.hit('login', '10.1.0.1', 'carol')).allowed).toBe(false);
    expect((await l.hit('reset-password', '10.1.0.1', 'carol')).allowed).toBe(true);
  });

  it('is shared by two limiters on two connections (two replicas)', async () => {
    const prefix = `${names.redisKeyPrefix}shared:`;
    const a = limiter(redisA, {}, prefix);
    const b = limiter(redisB, {}, prefix);
    const results = await Promise.all([...Array(8).keys()].map((i) => (i % 2 === 0 ? a : b).hit('signup', '198.51.100.1')));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed)).toHaveLength(3);
  });

  it('keeps its counters under <prefix>rl: with the window as TTL', async () => {
    const prefix = `${names.redisKeyPrefix}keys:`;
    const l = limiter(redisA, { windowSeconds: 900 }, prefix);
    await l.hit('login', '192.0.2.1', '@Dave');
    const keys = (await redisA.keys(`${prefix}*`)).sort();
    expect(keys).toEqual([`${prefix}rl:login:handle:dave`, `${prefix}rl:login:ip:192.0.2.1`]);
    const ttl = await redisA.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(899_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
  });

  it('opens again once the window is over', async () => {
    const l = limiter(redisA, { windowSeconds: 1, maxPerIp: 2 });
    expect(await hits(l, 3, '192.0.2.9')).toEqual([true, true, false]);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await hits(l, 1, '192.0.2.9')).toEqual([true]);
  });
});
