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
  const c = new SessionCache({ ttlMs, maxEntries, now: () => clock.now, random: () => 0 });
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

  describe('refresh-ahead', () => {
    function refreshing(ttlMs = 10_000) {
      const { c, clock } = cache(ttlMs);
      const asked: string[] = [];
      c.refreshWith((sid) => asked.push(sid));
      return { c, clock, asked };
    }

    it('asks once for a refresh when an entry is read in the last quarter of its life, and serves it meanwhile', () => {
      const { c, clock, asked } = refreshing(10_000);
      c.set('sid-a', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
      clock.now += 7_499;
      expect(c.get('sid-a')?.user.id).toBe('u1');
      expect(asked).toEqual([]);
      clock.now += 1;
      expect(c.get('sid-a')?.user.id).toBe('u1');
      expect(c.get('sid-a')?.user.id).toBe('u1');
      expect(asked).toEqual(['sid-a']);
      // Its answer replaces the entry for a whole TTL, and the next refresh comes a quarter before its end.
      c.set('sid-a', { user: user('u1', 'renamed'), expiresAt: inDays(14) }, c.mark());
      clock.now += 7_499;
      expect(c.get('sid-a')?.user.twitterUsername).toBe('renamed');
      expect(asked).toEqual(['sid-a']);
      clock.now += 1;
      c.get('sid-a');
      expect(asked).toEqual(['sid-a', 'sid-a']);
    });

    it('spreads the refreshes of entries cached together over up to another quarter of their life', () => {
      const clock = { now: T0 };
      let next = 0;
      const c = new SessionCache({ ttlMs: 10_000, maxEntries: 10, now: () => clock.now, random: () => [0, 0.5, 0.999][next++]! });
      c.resume();
      const asked: string[] = [];
      c.refreshWith((sid) => asked.push(sid));
      for (const sid of ['s0', 's5', 's9']) c.set(sid, { user: user(sid), expiresAt: inDays(1) }, c.mark());
      const readAll = () => ['s0', 's5', 's9'].forEach((sid) => c.get(sid));
      clock.now += 5_010;
      readAll();
      expect(asked).toEqual(['s9']);
      clock.now += 1_250;
      readAll();
      expect(asked).toEqual(['s9', 's5']);
      clock.now += 1_250;
      readAll();
      expect(asked).toEqual(['s9', 's5', 's0']);
    });

    it('never serves past the TTL while a refresh is under way', () => {
      const { c, clock, asked } = refreshing(10_000);
      c.set('sid-a', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
      clock.now += 8_000;
      c.get('sid-a');
      clock.now += 2_000;
      expect(c.get('sid-a')).toBeUndefined();
      expect(asked).toEqual(['sid-a']);
    });

    it('asks again on the next read when a refreshed answer came across an invalidation (not kept)', () => {
      const { c, clock, asked } = refreshing(10_000);
      c.set('sid-a', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
      clock.now += 8_000;
      const mark = c.mark();
      c.get('sid-a');
      c.invalidateUser('someone else');
      c.set('sid-a', { user: user('u1', 'maybe stale'), expiresAt: inDays(14) }, mark);
      expect(c.get('sid-a')?.user.twitterUsername).toBe('handle_u1');
      expect(asked).toEqual(['sid-a', 'sid-a']);
    });

    it('drops an entry whose refresh found the session dead or identity failing', () => {
      const { c, clock } = refreshing(10_000);
      c.set('sid-a', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
      c.set('sid-b', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
      clock.now += 8_000;
      const mark = c.mark();
      c.drop('sid-a');
      expect(c.get('sid-a')).toBeUndefined();
      expect(c.get('sid-b')).toBeDefined();
      // Another session's answer under way is still kept.
      c.set('sid-c', { user: user('u2'), expiresAt: inDays(14) }, mark);
      expect(c.get('sid-c')).toBeDefined();
    });
  });

  describe('renewals', () => {
    it("keeps a renewed session's new expiry until a request through the route takes it, once", () => {
      const { c } = cache();
      expect(c.renewalPending('sid-a')).toBe(false);
      c.noteRenewal('sid-a', inDays(14));
      expect(c.renewalPending('sid-a')).toBe(true);
      expect(c.renewalPending('sid-b')).toBe(false);
      expect(c.takeRenewal('sid-a')).toBe(inDays(14));
      expect(c.takeRenewal('sid-a')).toBeUndefined();
      expect(c.renewalPending('sid-a')).toBe(false);
    });

    it("keeps it across a user's invalidation, the bus away and a refresh (the cookie is still to be sent), not past the session's end", () => {
      const { c } = cache();
      c.set('sid-a', { user: user('u1'), expiresAt: inDays(14) }, c.mark());
      c.noteRenewal('sid-a', inDays(14));
      c.invalidateUser('u1');
      c.suspend();
      c.resume();
      expect(c.renewalPending('sid-a')).toBe(true);
      c.invalidateSession('sid-a');
      expect(c.renewalPending('sid-a')).toBe(false);
    });

    it('keeps at most maxEntries renewals, the oldest going first', () => {
      const { c } = cache(10_000, 2);
      for (const sid of ['s1', 's2', 's3']) c.noteRenewal(sid, inDays(14));
      expect(['s1', 's2', 's3'].map((sid) => c.renewalPending(sid))).toEqual([false, true, true]);
    });
  });
});
