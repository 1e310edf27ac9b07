// The session cache (ADR 0004) in the real gateway over the fake identity and the real NATS: a signed-in
// request answered from memory, the renewal still reaching the browser, and every way a cached session
// stops being served: a logout or a wallet change through this replica (at once) and identity's events
// from anywhere else (session.ended, user.sessions-ended, user.updated) read from the stream.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { subjectFor, type EventData, type EventType } from '@clipit/contracts';
import { buildEventEnvelope, connectNats, jetstream, type NatsConnection } from '@clipit/service-kit';
import { startNatsServer, testInfra, waitFor, type PrivateServer } from '@clipit/testing';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const OTHER_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const TTL_MS = 1500;
let seq = 0;

describe('session cache (fake identity, real NATS)', () => {
  let h: GatewayHarness;
  let nc: NatsConnection;

  beforeAll(async () => {
    h = await startGateway({ GATEWAY_SESSION_CACHE_TTL_MS: TTL_MS });
    nc = await connectNats(testInfra().natsUrl, 'session-cache-test');
  });
  afterAll(async () => {
    await nc?.close();
    await h?.stop();
  });

  const resolves = () => h.identity.calls.filter((c) => c.method === 'ResolveSessionWithExpiry').length;
  const me = (sid: string) => fetch(`${h.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}` } });

  async function signUp(): Promise<{ sid: string; id: string; handle: string }> {
    seq += 1;
    const handle = `cache_${seq}_${Date.now().toString(36).slice(-4)}`;
    const res = await fetch(`${h.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'password123',
      }),
    });
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    const { user } = (await res.json()) as { user: { id: string } };
    return { sid, id: user.id, handle };
  }

  async function publish<T extends EventType>(type: T, data: EventData<T>): Promise<void> {
    const envelope = buildEventEnvelope(type, data);
    await jetstream(nc).publish(subjectFor(type, h.gateway.config.EVENTS_SUBJECT_PREFIX), JSON.stringify(envelope), { msgID: envelope.id });
  }

  /** Polls until /api/user/me answers `status`; answers how long it took. */
  async function meBecomes(sid: string, status: number, within = 1000): Promise<number> {
    const started = Date.now();
    await waitFor(
      async () => {
        const res = await me(sid);
        await res.arrayBuffer();
        return res.status === status ? true : undefined;
      },
      within,
      `/api/user/me ${status}`,
    );
    return Date.now() - started;
  }

  it('answers repeated requests of one session with one call to identity, and asks again after the TTL', async () => {
    const { sid } = await signUp();
    const before = resolves();
    for (let i = 0; i < 20; i += 1) {
      const res = await me(sid);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(resolves() - before).toBe(1);
    await new Promise((r) => setTimeout(r, TTL_MS + 50));
    expect((await me(sid)).status).toBe(200);
    expect(resolves() - before).toBe(2);
  });

  it('asks identity once for many concurrent requests of one session', async () => {
    const { sid } = await signUp();
    const before = resolves();
    const answers = await Promise.all(Array.from({ length: 30 }, () => me(sid)));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(200));
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    expect(resolves() - before).toBe(1);
  });

  it('still renews a session used only from the cache, and re-issues the cookie', async () => {
    const { sid } = await signUp();
    expect((await me(sid)).headers.get('set-cookie')).toBeNull();
    h.identity.renewals.add(sid);
    // Served from the cache until the TTL runs out; the next request reaches identity, which renews.
    await new Promise((r) => setTimeout(r, TTL_MS + 50));
    const renewed = await me(sid);
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('set-cookie')).toMatch(
      new RegExp(`^clipit\\.sid=${sid}; Max-Age=(1209[56]\\d\\d); Path=/; HttpOnly; SameSite=Lax$`),
    );
  });

  it('never caches an unknown session: a fresh login works at once', async () => {
    const unknown = 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';
    expect((await me(unknown)).status).toBe(401);
    h.identity.sessions.set(unknown, [...h.identity.users.keys()][0]!);
    expect((await me(unknown)).status).toBe(200);
  });

  it('a logout through this replica: the cookie is refused at once', async () => {
    const { sid } = await signUp();
    expect((await me(sid)).status).toBe(200);
    const out = await fetch(`${h.url}/api/logout`, { method: 'POST', headers: { cookie: `clipit.sid=${sid}`, origin: h.url } });
    expect(out.status).toBe(200);
    expect((await me(sid)).status).toBe(401);
  });

  it('a wallet saved through this replica shows on the next /api/user/me at once', async () => {
    const { sid } = await signUp();
    expect(((await (await me(sid)).json()) as { walletAddress: string }).walletAddress).toBe(WALLET);
    const saved = await fetch(`${h.url}/api/user/profile`, {
      method: 'PATCH',
      headers: { cookie: `clipit.sid=${sid}`, origin: h.url, 'content-type': 'application/json' },
      body: JSON.stringify({ walletAddress: OTHER_WALLET, currentPassword: 'password123' }),
    });
    expect(saved.status).toBe(200);
    expect(((await (await me(sid)).json()) as { walletAddress: string }).walletAddress).toBe(OTHER_WALLET);
  });

  it('a password reset confirmed through this replica: its sessions are refused at once', async () => {
    const { sid, handle } = await signUp();
    expect((await me(sid)).status).toBe(200);
    const post = (path: string, body: unknown) =>
      fetch(`${h.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const asked = await post('/api/auth/reset-password', {
      twitterHandle: `@${handle.toUpperCase()}`,
      email: `${handle}@example.com`,
      newPassword: 'another-password',
    });
    expect(asked.status).toBe(200);
    // Asked for, nothing changed: the session stands until the mailed link is confirmed.
    expect((await me(sid)).status).toBe(200);
    const [token] = [...h.identity.resetLinks.keys()];
    const confirmed = await post('/api/auth/reset-password/confirm', { token });
    expect({ status: confirmed.status, body: await confirmed.json() }).toEqual({
      status: 200,
      body: { message: 'Password reset successfully' },
    });
    expect((await me(sid)).status).toBe(401);
  });

  describe('what another replica did, heard from identity events on NATS', () => {
    it('session.ended: the cached session is refused within a second', async () => {
      const { sid, id } = await signUp();
      expect((await me(sid)).status).toBe(200);
      h.identity.sessions.delete(sid); // ended at identity, through another replica
      expect((await me(sid)).status).toBe(200); // still cached here
      await publish('session.ended', { userId: id, sessionKey: 'A'.repeat(43), reason: 'logout' });
      expect(await meBecomes(sid, 401)).toBeLessThan(1000);
    });

    it('user.sessions-ended: every cached session of the account is refused within a second', async () => {
      const [a, b] = [await signUp(), await signUp()];
      const second = 'DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD';
      h.identity.sessions.set(second, a.id);
      for (const sid of [a.sid, second, b.sid]) expect((await me(sid)).status).toBe(200);
      for (const sid of [a.sid, second]) h.identity.sessions.delete(sid);
      await publish('user.sessions-ended', { userId: a.id, reason: 'password-reset', endedSessions: 2 });
      await meBecomes(a.sid, 401);
      await meBecomes(second, 401);
      expect((await me(b.sid)).status).toBe(200); // someone else's stays
    });

    it('user.updated: /api/user/me shows the new data within a second', async () => {
      const { sid, id } = await signUp();
      expect(((await (await me(sid)).json()) as { walletAddress: string }).walletAddress).toBe(WALLET);
      h.identity.users.get(id)!.walletAddress = OTHER_WALLET; // changed through another replica
      expect(((await (await me(sid)).json()) as { walletAddress: string }).walletAddress).toBe(WALLET); // cached here
      const snapshot = {
        id,
        twitterUsername: null,
        displayName: null,
        firstName: null,
        lastName: null,
        profileImageUrl: null,
        bannerImageUrl: null,
        walletAddress: OTHER_WALLET,
        role: 'clipper' as const,
        currentTier: 1,
        isLive: 'false' as const,
        nextStreamTime: null,
        streamerMultiplier: '1.00',
        isPlaceholder: 'false' as const,
        claimedBy: null,
        claimedAt: null,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      };
      await publish('user.updated', { user: snapshot, changed: ['walletAddress'] });
      await waitFor(
        async () => (((await (await me(sid)).json()) as { walletAddress: string }).walletAddress === OTHER_WALLET ? true : undefined),
        1000,
        'new wallet',
      );
    });
  });

  describe('while NATS is away (a private server, stopped and paused)', () => {
    let nats: PrivateServer;
    let g: GatewayHarness;

    beforeAll(async () => {
      nats = await startNatsServer();
      g = await startGateway({ NATS_URL: nats.url, GATEWAY_SESSION_CACHE_TTL_MS: 30_000 });
    });
    afterAll(async () => {
      await g?.gateway.close();
      await g?.identity.close();
      await nats?.close();
    });

    const gResolves = () => g.identity.calls.filter((c) => c.method === 'ResolveSessionWithExpiry').length;
    const gMe = async (sid: string) => {
      const res = await fetch(`${g.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}` } });
      await res.arrayBuffer();
      return res.status;
    };
    /** Whether two requests in a row were answered without asking identity. */
    const servedFromCache = async (sid: string) => {
      const before = gResolves();
      await gMe(sid);
      await gMe(sid);
      return gResolves() === before;
    };

    it('stops serving from the cache when NATS goes, and serves again once it is back', async () => {
      const up = await fetch(`${g.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'away@example.com',
          twitterHandle: 'away_1',
          walletAddress: WALLET,
          role: 'clipper',
          password: 'password123',
        }),
      });
      const sid = /clipit\.sid=([^;]+)/.exec(up.headers.get('set-cookie') ?? '')![1]!;
      await up.arrayBuffer();
      await gMe(sid);
      expect(await servedFromCache(sid)).toBe(true);

      // Stopped: the client sees the connection drop, and every request asks identity.
      await nats.process.kill();
      await waitFor(async () => ((await servedFromCache(sid)) ? undefined : true), 2000, 'cache bypassed');
      const userId = g.identity.sessions.get(sid)!;
      g.identity.sessions.delete(sid); // a logout elsewhere, whose event cannot arrive now
      expect(await gMe(sid)).toBe(401); // not served stale for the cache's 30 s
      g.identity.sessions.set(sid, userId);

      await nats.process.start();
      await waitFor(async () => ((await servedFromCache(sid)) ? true : undefined), 10_000, 'cache serving again');

      // Paused: the connection stays open but nothing answers; within BUS_SILENCE_MS the cache stops.
      nats.process.pause();
      try {
        await waitFor(async () => ((await servedFromCache(sid)) ? undefined : true), 6000, 'cache bypassed while paused');
      } finally {
        nats.process.resume();
      }
      await waitFor(async () => ((await servedFromCache(sid)) ? true : undefined), 10_000, 'cache serving after the pause');
    });
  });
});
