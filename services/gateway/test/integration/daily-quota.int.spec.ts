// The daily counters behind the submission limit, against the real Redis with a clock the test moves:
// all or nothing across counters, refusals that cost nothing today or tomorrow, a new UTC day, the
// give-back, and concurrent replicas never letting more through than the limit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deleteKeysWithPrefix, isolatedNames, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { DailyQuota, type QuotaCounter } from '../../src/rate-limit/daily-quota.js';

// The clock stays within today and tomorrow (UTC): the counters expire at real midnight in Redis.
const DAY_MS = 86_400_000;
const TODAY = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const TOMORROW = new Date(TODAY.getTime() + DAY_MS);
const today = TODAY.toISOString().slice(0, 10);
/** `hh:mm` of today, UTC. */
const at = (hhmm: string) => new Date(`${today}T${hhmm}:00Z`).toISOString();

describe('DailyQuota (real Redis)', () => {
  const names = isolatedNames('gateway-quota');
  let redisA: Redis;
  let redisB: Redis;
  let n = 0;

  beforeAll(() => {
    redisA = new Redis(testInfra().redisUrl);
    redisB = new Redis(testInfra().redisUrl);
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redisA, names.redisKeyPrefix);
    redisA.disconnect();
    redisB.disconnect();
  });

  /** Quotas on their own prefix, reading a clock the test sets. */
  function quotas(start: string) {
    const clock = { now: new Date(start) };
    const prefix = `${names.redisKeyPrefix}${++n}:`;
    const make = (redis: Redis) => new DailyQuota(redis, { keyPrefix: prefix, now: () => clock.now });
    return { a: make(redisA), b: make(redisB), clock, prefix };
  }
  const counters = (user: string, ip: string): QuotaCounter[] => [
    { kind: 'user', value: user, limit: 2 },
    { kind: 'ip', value: ip, limit: 3 },
  ];

  it('counts on every counter or on none, and says which one is spent and until when', async () => {
    const { a, prefix } = quotas(at('18:00'));
    expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(true);
    expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(true);
    const refused = await a.reserve('submissions', counters('u1', 'ip1'));
    expect(refused).toEqual({
      allowed: false,
      exceeded: { kind: 'user', value: 'u1', limit: 2 },
      retryAfterSeconds: 6 * 3600,
      resetsAt: TOMORROW,
    });
    // The refusal counted nowhere: the address has 2 of 3, so another account gets one more.
    expect(await redisA.get(`${prefix}rl:submissions:ip:ip1:${today}`)).toBe('2');
    expect((await a.reserve('submissions', counters('u2', 'ip1'))).allowed).toBe(true);
    expect(await a.reserve('submissions', counters('u3', 'ip1'))).toMatchObject({ allowed: false, exceeded: { kind: 'ip' } });
    expect(await redisA.get(`${prefix}rl:submissions:user:u3:${today}`)).toBeNull();
  });

  it('starts again at 00:00 UTC, however many attempts were refused the day before', async () => {
    const { a, clock } = quotas(at('23:59'));
    for (let i = 0; i < 2; i++) expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(true);
    for (let i = 0; i < 10; i++) expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(false);
    expect(await a.reserve('submissions', counters('u1', 'ip1'))).toMatchObject({ retryAfterSeconds: 60 });
    clock.now = TOMORROW;
    expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(true);
    expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(true);
    expect((await a.reserve('submissions', counters('u1', 'ip1'))).allowed).toBe(false);
  });

  it('gives back what was counted, and never below zero', async () => {
    const { a, prefix } = quotas(at('12:00'));
    const first = await a.reserve('submissions', counters('u1', 'ip1'));
    const second = await a.reserve('submissions', counters('u1', 'ip1'));
    if (!first.allowed || !second.allowed) throw new Error('expected both to be allowed');
    await a.release(second.reservation);
    expect(await redisA.get(`${prefix}rl:submissions:user:u1:${today}`)).toBe('1');
    await a.release(first.reservation);
    await a.release(first.reservation);
    expect(await redisA.keys(`${prefix}*`)).toEqual([]);
  });

  it('expires each counter just after its day', async () => {
    const { a, prefix } = quotas(new Date().toISOString());
    await a.reserve('submissions', counters('u1', 'ip1'));
    const day = new Date().toISOString().slice(0, 10);
    const expireAt = Date.now() + (await redisA.pttl(`${prefix}rl:submissions:user:u1:${day}`));
    const midnight = new Date(`${day}T00:00:00Z`).getTime() + 86_400_000;
    expect(expireAt).toBeGreaterThanOrEqual(midnight);
    expect(expireAt).toBeLessThanOrEqual(midnight + 61_000);
  });

  it('lets exactly the limit through when two replicas race', async () => {
    const { a, b } = quotas(at('12:00'));
    const results = await Promise.all(
      [...Array(10).keys()].map((i) => (i % 2 === 0 ? a : b).reserve('submissions', counters('racer', `ip-${i}`))),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(2);
  });
});
