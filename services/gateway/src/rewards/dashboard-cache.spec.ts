import { describe, expect, it } from '@jest/globals';
import { SessionCache } from '../auth/session-cache.js';
import type { GatewayConfig } from '../config.js';
import { DashboardCache } from './dashboard-cache.js';

const quiet = { warn: () => undefined } as never;

function setup(maxEntries = 100, ttlMs = 10_000) {
  let callback: ((err: Error | null, msg: { data: Uint8Array }) => void) | undefined;
  let subject = '';
  const nc = {
    subscribe: (s: string, opts: { callback: typeof callback }) => (
      (subject = s),
      (callback = opts.callback),
      { unsubscribe: () => undefined }
    ),
  };
  const config = {
    GATEWAY_DASHBOARD_CACHE_TTL_MS: ttlMs,
    GATEWAY_DASHBOARD_CACHE_MAX_ENTRIES: maxEntries,
    EVENTS_SUBJECT_PREFIX: 'events',
  } as GatewayConfig;
  const sessions = new SessionCache({ ttlMs: 10_000, maxEntries: 100 });
  sessions.resume();
  const cache = new DashboardCache(config, nc as never, sessions, quiet);
  cache.onModuleInit();
  const notice = (body: unknown) =>
    callback!(null, { data: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)) });
  return { cache, sessions, notice, subject: () => subject };
}

const loader = (user: string) => {
  let n = 0;
  return { load: async () => ({ user, n: ++n }), loads: () => n };
};

describe('DashboardCache', () => {
  it("keeps each user's answer under their id only, and answers it again from memory", async () => {
    const { cache, subject } = setup();
    expect(subject()).toBe('notices.events.rewards.changed');
    const alice = loader('alice');
    expect((await cache.get('alice', alice.load)).body.toString()).toBe('{"user":"alice","n":1}');
    expect((await cache.get('alice', alice.load)).body.toString()).toBe('{"user":"alice","n":1}');
    expect(alice.loads()).toBe(1);
    expect(cache.peek('bob')).toBeUndefined();
  });

  it("drops the users a rewards notice names, everyone's on one that names no one or cannot be read", async () => {
    const { cache, notice } = setup();
    await cache.get('alice', loader('alice').load);
    await cache.get('bob', loader('bob').load);
    notice({ userIds: ['alice'], cause: 'submission.approved' });
    expect(cache.peek('alice')).toBeUndefined();
    expect(cache.peek('bob')).toBeDefined();
    notice({ userIds: [], all: true, cause: 'weekly-payout' });
    expect(cache.peek('bob')).toBeUndefined();
    await cache.get('bob', loader('bob').load);
    notice('not json');
    expect(cache.size).toBe(0);
  });

  it('forgets a user with their sessions (a user event), and everything while the session cache is off', async () => {
    const { cache, sessions } = setup();
    await cache.get('alice', loader('alice').load);
    await cache.get('bob', loader('bob').load);
    sessions.invalidateUser('alice');
    expect(cache.peek('alice')).toBeUndefined();
    expect(cache.peek('bob')).toBeDefined();
    sessions.suspend();
    expect(cache.peek('bob')).toBeUndefined();
    const carol = loader('carol');
    await cache.get('carol', carol.load);
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer loaded across an invalidation', async () => {
    const { cache, notice } = setup();
    let release!: () => void;
    const pending = cache.get('alice', () => new Promise((resolve) => (release = () => resolve({ old: true }))));
    notice({ userIds: ['alice'], cause: 'submission.approved' });
    release();
    expect((await pending).body.toString()).toBe('{"old":true}');
    expect(cache.peek('alice')).toBeUndefined();
  });

  it('keeps at most its bound and nothing past its time, or at all with a TTL of 0', async () => {
    const { cache } = setup(2);
    for (const user of ['a', 'b', 'c']) await cache.get(user, loader(user).load);
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
    const off = setup(10, 0);
    await off.cache.get('a', loader('a').load);
    expect(off.cache.size).toBe(0);
  });

  it('shares one call to rewards among concurrent misses of a user, and not across an invalidation', async () => {
    const { cache, notice } = setup();
    let calls = 0;
    const releases: Array<() => void> = [];
    const load = () => new Promise<unknown>((resolve) => releases.push(() => resolve({ n: ++calls })));
    const first = [cache.get('alice', load), cache.get('alice', load)];
    notice({ userIds: ['alice'], cause: 'submission.created' });
    const after = cache.get('alice', load);
    expect(releases).toHaveLength(2);
    releases.forEach((release) => release());
    const [a, b] = await Promise.all(first);
    expect(a).toBe(b);
    expect((await after).body.toString()).toBe('{"n":2}');
  });

  it("keeps an answer showing a wallet hold no later than the hold's end, others their whole time", async () => {
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      const { cache } = setup(100, 60_000);
      const heldUntil = new Date(now + 5_000).toISOString();
      await cache.get('held', async () => ({ payoutHold: { amount: 1, reason: 'held', heldUntil, walletChangedAt: heldUntil } }));
      await cache.get('free', async () => ({ payoutHold: null }));
      await cache.get('over', async () => ({ payoutHold: { heldUntil: new Date(now - 1).toISOString() } }));
      expect(cache.peek('over')).toBeUndefined();
      now += 4_999;
      expect(cache.peek('held')).toBeDefined();
      now += 1;
      expect(cache.peek('held')).toBeUndefined();
      now += 54_999;
      expect(cache.peek('free')).toBeDefined();
      now += 1;
      expect(cache.peek('free')).toBeUndefined();
    } finally {
      Date.now = realNow;
    }
  });
});
