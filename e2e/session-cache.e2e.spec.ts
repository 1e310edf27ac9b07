// The gateway's session cache across replicas (ADR 0004): two gateways over one identity and one NATS,
// each caching sessions for GATEWAY_SESSION_CACHE_TTL_MS (10 s by default). A logout, a wallet change and
// a password reset made through replica A reach replica B through identity's events (session.ended,
// user.updated, user.sessions-ended, written in identity's transaction and relayed from its outbox)
// well within a second, long before B's cached answers would run out by themselves.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@clipit/testing';
import type { GatewayApp } from '../services/gateway/src/app.js';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const NEW_WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
/** How soon another replica must stop serving what changed. */
const WITHIN_MS = 1000;

let seq = 0;

describe('session cache across two gateway replicas (real identity, NATS, Postgres)', () => {
  let p: Platform;
  let a: string;
  let b: string;

  beforeAll(async () => {
    p = await startPlatform({ RATE_LIMIT_MAX_PER_IP: 1000 });
    const other: GatewayApp = await p.startGateway();
    a = p.url;
    b = other.httpUrl;
    expect(p.gateway.config.GATEWAY_SESSION_CACHE_TTL_MS).toBeGreaterThanOrEqual(10 * WITHIN_MS);
  });
  afterAll(async () => {
    await p?.stop();
  });

  const send = (base: string, path: string, init: RequestInit = {}) => fetch(...asOurPage(base, path, init));
  const me = async (base: string, cookie: string) => {
    const res = await send(base, '/api/user/me', { headers: { cookie } });
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as { walletAddress: string | null }) : await res.text() };
  };

  async function signUp(): Promise<{ handle: string; email: string; cookie: string }> {
    seq += 1;
    const handle = `sc_${Date.now().toString(36).slice(-5)}${seq}`;
    const email = `${handle}@example.com`;
    const res = await send(a, '/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, twitterHandle: handle, walletAddress: WALLET, role: 'clipper', password: 'a-good-password' }),
    });
    expect(res.status).toBe(201);
    await res.arrayBuffer();
    return { handle, email, cookie: /clipit\.sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0] };
  }

  /** Polls until `check` holds; answers how long it took (fails past WITHIN_MS). */
  async function within(label: string, check: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    await waitFor(async () => ((await check()) ? true : undefined), WITHIN_MS, label);
    return Date.now() - started;
  }

  it('a logout on A: the same cookie is refused on B within a second', async () => {
    const person = await signUp();
    // Both replicas have the session cached now.
    expect((await me(a, person.cookie)).status).toBe(200);
    expect((await me(b, person.cookie)).status).toBe(200);
    expect((await me(b, person.cookie)).status).toBe(200);

    const out = await send(a, '/api/logout', { method: 'POST', headers: { cookie: person.cookie } });
    expect(out.status).toBe(200);
    await out.arrayBuffer();
    expect((await me(a, person.cookie)).status).toBe(401); // the replica that handled it: at once
    const took = await within('B refuses the ended session', async () => (await me(b, person.cookie)).status === 401);
    expect(took).toBeLessThan(WITHIN_MS);
    expect(
      await p.count(`SELECT count(*) FROM outbox WHERE type = 'session.ended' AND envelope -> 'data' ->> 'reason' = 'logout'`),
    ).toBeGreaterThanOrEqual(1);
  });

  it('a wallet saved on A shows on /api/user/me at once on A and within a second on B', async () => {
    const person = await signUp();
    expect((await me(a, person.cookie)).body).toMatchObject({ walletAddress: WALLET });
    expect((await me(b, person.cookie)).body).toMatchObject({ walletAddress: WALLET });

    const saved = await send(a, '/api/user/profile', {
      method: 'PATCH',
      headers: { cookie: person.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ walletAddress: NEW_WALLET, currentPassword: 'a-good-password' }),
    });
    expect(saved.status).toBe(200);
    await saved.arrayBuffer();
    expect((await me(a, person.cookie)).body).toMatchObject({ walletAddress: NEW_WALLET });
    await within(
      'B shows the new wallet',
      async () => ((await me(b, person.cookie)).body as { walletAddress?: string }).walletAddress === NEW_WALLET,
    );
  });

  it('a password reset ends the sessions on both replicas', async () => {
    const person = await signUp();
    // A second session, signed in on B.
    const login = await send(b, '/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ twitterHandle: person.handle, password: 'a-good-password' }),
    });
    expect(login.status).toBe(200);
    await login.arrayBuffer();
    const second = /clipit\.sid=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
    for (const base of [a, b]) for (const cookie of [person.cookie, second]) expect((await me(base, cookie)).status).toBe(200);

    // A reset goes by the link mailed to a confirmed address (ADR 0031): confirm it, ask, confirm the link on A.
    const post = async (path: string, body: unknown) => {
      const res = await send(a, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    };
    const tokenIn = (link: string) => new URL(link).hash.replace(/^#token=/, '');
    await post('/api/auth/verify-email', { token: tokenIn((await p.mail.waitFor(person.email)).links[0]!) });
    await post('/api/auth/reset-password', { twitterHandle: person.handle, email: person.email, newPassword: 'a-new-password' });
    await post('/api/auth/reset-password/confirm', { token: tokenIn((await p.mail.waitFor(person.email, { n: 2 })).links[0]!) });
    for (const cookie of [person.cookie, second]) expect((await me(a, cookie)).status).toBe(401);
    await within(
      'B refuses both sessions',
      async () => (await me(b, person.cookie)).status === 401 && (await me(b, second)).status === 401,
    );
    expect(await p.count(`SELECT count(*) FROM outbox WHERE type = 'user.sessions-ended'`)).toBeGreaterThanOrEqual(1);
  });
});
