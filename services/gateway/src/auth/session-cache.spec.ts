import type { identityV1 } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import { SessionCache } from './session-cache.js';

const T0 = Date.parse('2026-11-26T00:00:00.000Z');
const inDays = (days: number) => new Date(T0 + days * 86_400_000).toISOString();

function user(id: string, twitterUsername = `handle_${id}`): identityV1.User {
  return {
    id,
    twitterUsername,
    role: 'clipper',
    currentTier: 1,
    isLive: 'false',
    streamerMultiplier: '1.00',
    isPlaceholder: 'false',
    createdAt: '',
    updatedAt: '',
  } as identityV1.User;
}

function cache(ttlMs = 10_000, maxEntries = 100) {
  const clock = { now: T0 };
  const c = new SessionCache({ ttlMs, maxEntries, now: () => clock.now });
  c.resume();
  return { c, clock };
}

describe('SessionCache', () => {
  it('answers a kept session until its TTL, then asks again', () => {
    const { c, clock } = cache(10_000);
    c.set('sid-a', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
    expect(c.get('sid-a')?.user.id).toBe('u1');
    clock.now += 9_999;
    expect(c.get('sid-a')?.user.id).toBe('u1');
    clock.now += 1;
    expect(c.get('sid-a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('never serves a session past its own expiry, however long the TTL', () => {
    const { c, clock } = cache(60_000);
    c.set('sid-a', { user: user('u1'), expiresAt: new Date(T0 + 2_000).toISOString() }, c.mark());
    clock.now += 1_999;
    expect(c.get('sid-a')).toBeDefined();
    clock.now += 1;
    expect(c.get('sid-a')).toBeUndefined();
    // Already expired: not kept at all.
    c.set('sid-b', { user: user('u2'), expiresAt: new Date(T0 - 1).toISOString() }, c.mark());
    expect(c.get('sid-b')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const { c } = cache(10_000, 3);
    for (const sid of ['s1', 's2', 's3']) c.set(sid, { user: user(sid), expiresAt: inDays(1) }, c.mark());
    expect(c.get('s1')).toBeDefined(); // s1 used: s2 is now the oldest
    c.set('s4', { user: user('s4'), expiresAt: inDays(1) }, c.mark());
    expect(c.size).toBe(3);
    expect(c.get('s2')).toBeUndefined();
    expect(['s1', 's3', 's4'].map((s) => c.get(s)?.user.id)).toEqual(['s1', 's3', 's4']);
    for (let i = 0; i < 1000; i += 1) c.set(`x${i}`, { user: user(`x${i}`), expiresAt: inDays(1) }, c.mark());
    expect(c.size).toBe(3);
  });

  it('forgets one session on logout, and every session of a user on a change or a reset', () => {
    const { c } = cache();
    c.set('a1', { user: user('ua', 'Alice'), expiresAt: inDays(1) }, c.mark());
    c.set('a2', { user: user('ua', 'Alice'), expiresAt: inDays(1) }, c.mark());
    c.set('b1', { user: user('ub', 'bob'), expiresAt: inDays(1) }, c.mark());
    c.invalidateSession('a1');
    expect(c.get('a1')).toBeUndefined();
    expect(c.get('a2')).toBeDefined();
    c.invalidateUser('ua');
    expect(c.get('a2')).toBeUndefined();
    expect(c.get('b1')).toBeDefined();
    c.invalidateHandle('@BOB');
    expect(c.get('b1')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('does not keep an answer fetched while an invalidation happened (it may predate it)', () => {
    const { c } = cache();
    const mark = c.mark();
    c.invalidateUser('someone else entirely');
    c.set('a1', { user: user('ua'), expiresAt: inDays(1) }, mark);
    expect(c.get('a1')).toBeUndefined();
    const fresh = c.mark();
    c.set('a1', { user: user('ua'), expiresAt: inDays(1) }, fresh);
    expect(c.get('a1')).toBeDefined();
  });

  it('never caches when the TTL is 0', () => {
    const { c } = cache(0);
    c.set('a1', { user: user('ua'), expiresAt: inDays(1) }, c.mark());
    expect(c.active).toBe(false);
    expect(c.get('a1')).toBeUndefined();
  });

  it('serves nothing while suspended (the bus away), and nothing from before once resumed', () => {
    const { c } = cache();
    c.set('a1', { user: user('ua'), expiresAt: inDays(1) }, c.mark());
    c.suspend();
    expect(c.get('a1')).toBeUndefined();
    c.set('a2', { user: user('ua'), expiresAt: inDays(1) }, c.mark());
    c.resume();
    expect(c.get('a1')).toBeUndefined();
    expect(c.get('a2')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('starts suspended: nothing is served until invalidations can be heard', () => {
    const c = new SessionCache({ ttlMs: 10_000, maxEntries: 10 });
    c.set('a1', { user: user('ua'), expiresAt: inDays(1) }, c.mark());
    expect(c.get('a1')).toBeUndefined();
  });
});
