// Sign in with X end to end (ADR 0028): the real gateway and identity (Postgres, NATS, Redis) against a
// real OAuth 2.0 authorization server standing in for X (libs/testing: oidc-provider with PKCE required and
// client_secret_basic, and X's /2/users/me behind its access tokens). The browser is a redirect walker
// keeping cookies per origin, as a browser does.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RedirectWalker, startXOAuthStandIn, type XOAuthStandIn } from '@clipit/testing';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
let seq = 0;
function xUser() {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return {
    id: `16${Date.now()}${seq}`.slice(0, 19),
    name: `E2E X ${seq}`,
    username: `ex_${tag}`,
    profile_image_url: `https://pbs.twimg.com/profile_images/${tag}.jpg`,
  };
}

describe('sign in with X (gateway + identity, X stand-in)', () => {
  let x: XOAuthStandIn;
  let p: Platform;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  /** From a start route through X and back, to where the gateway sends the browser in the end. */
  const signInWithX = (walker: RedirectWalker, start = '/api/login') => {
    const ours = new URL(p.url).origin;
    return walker.walk(`${p.url}${start}`, (next) => next.origin === ours && !next.pathname.startsWith('/auth/twitter'));
  };
  const sidOf = (walker: RedirectWalker) => walker.cookies(new URL(p.url).origin).get('clipit.sid');

  beforeAll(async () => {
    x = await startXOAuthStandIn();
    p = await startPlatform({
      RATE_LIMIT_MAX_PER_IP: 10_000,
      RATE_LIMIT_MAX_PER_HANDLE: 10_000,
      X_OAUTH_CLIENT_ID: x.clientId,
      X_OAUTH_CLIENT_SECRET: x.clientSecret,
      X_OAUTH_AUTHORIZE_URL: x.authorizeUrl,
      X_OAUTH_TOKEN_URL: x.tokenUrl,
      X_API_BASE_URL: x.apiBaseUrl,
    });
    x.allowRedirectUri(`${p.url}/auth/twitter/callback`);
  });

  afterAll(async () => {
    await p?.stop();
    await x?.close();
  });

  it('a new X user: an account made by identity, /connect to add a wallet, then the dashboard the next time', async () => {
    const user = xUser();
    x.signInAs(user);
    const walker = new RedirectWalker();
    const first = await signInWithX(walker, '/auth/twitter');
    expect(first.stoppedAt?.pathname).toBe('/connect');
    const cookie = `clipit.sid=${sidOf(walker)}`;

    const me = await api('/api/user/me', { headers: { cookie } });
    const body = (await me.json()) as {
      id: string;
      twitterUsername: string;
      walletAddress: string | null;
      role: string;
      displayName: string;
      profileImageUrl: string;
    };
    expect(body).toMatchObject({
      twitterUsername: user.username,
      displayName: user.name,
      profileImageUrl: user.profile_image_url,
      role: 'clipper',
      walletAddress: null,
    });
    const { rows } = await p.db.query('SELECT x_user_id, password_hash, email FROM users WHERE id = $1', [body.id]);
    expect(rows[0]).toEqual({ x_user_id: user.id, password_hash: null, email: null });
    // Linked through the outbox, with the account's user.registered before it.
    const events = await p.db.query(
      `SELECT type FROM outbox WHERE envelope->'data'->>'userId' = $1 OR envelope->'data'->'user'->>'id' = $1 ORDER BY seq`,
      [body.id],
    );
    expect(events.rows.map((r: { type: string }) => r.type)).toEqual(['user.registered', 'user.x-linked']);

    // The Connect page saves the wallet…
    const saved = await api('/api/user/profile', json('PATCH', { walletAddress: WALLET }, { cookie }));
    expect(saved.status).toBe(200);
    await saved.arrayBuffer();
    // …and the next sign-in with X lands on the dashboard, in the same account.
    const again = await signInWithX(new RedirectWalker());
    expect(again.stoppedAt?.pathname).toBe('/clippers/dashboard');
    expect(await p.count('SELECT count(*) FROM users WHERE x_user_id = $1', [user.id])).toBe(1);

    // No password: a password login is refused in the usual words.
    await expectText(
      await api('/api/auth/login', json('POST', { twitterHandle: user.username, password: 'anything-at-all' })),
      401,
      'Invalid Twitter handle or password',
    );
  });

  it('links the password account with the X handle, which keeps its password and wallet', async () => {
    const user = xUser();
    const up = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${user.username}@example.com`,
        twitterHandle: user.username,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'password123',
      }),
    );
    expect(up.status).toBe(201);
    const { user: account } = (await up.json()) as { user: { id: string } };
    x.signInAs({ ...user, username: user.username.toUpperCase() });
    const walker = new RedirectWalker();
    expect((await signInWithX(walker)).stoppedAt?.pathname).toBe('/clippers/dashboard');
    const me = (await (await api('/api/user/me', { headers: { cookie: `clipit.sid=${sidOf(walker)}` } })).json()) as { id: string };
    expect(me.id).toBe(account.id);
    // Written in the same transaction as the link.
    expect(
      await p.count(`SELECT count(*) FROM outbox WHERE type = 'user.x-linked' AND envelope->'data'->>'userId' = $1`, [account.id]),
    ).toBe(1);
    const login = await api('/api/auth/login', json('POST', { twitterHandle: user.username, password: 'password123' }));
    expect(login.status).toBe(200);
    await login.arrayBuffer();
  });

  it('a signed-in account links X once: another account’s X, or a second X, goes back to /login with the reason', async () => {
    const taken = xUser();
    x.signInAs(taken);
    await signInWithX(new RedirectWalker());

    const up = await api(
      '/api/auth/signup',
      json('POST', {
        email: `link${seq}@example.com`,
        twitterHandle: `lk_${Date.now().toString(36).slice(-6)}${seq}`,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'password123',
      }),
    );
    const sid = /clipit\.sid=([^;]+)/.exec(up.headers.get('set-cookie') ?? '')![1]!;
    await up.arrayBuffer();
    // Each attempt in a fresh browser as far as X is concerned (no X session yet), signed in here.
    const signedIn = () => {
      const walker = new RedirectWalker();
      walker.set(new URL(p.url).origin, 'clipit.sid', sid);
      return walker;
    };
    expect((await signInWithX(signedIn())).stoppedAt?.toString()).toBe(`${p.url}/login?error=x-linked-elsewhere`);

    x.signInAs(xUser());
    expect((await signInWithX(signedIn())).stoppedAt?.pathname).toBe('/clippers/dashboard');
    x.signInAs(xUser());
    expect((await signInWithX(signedIn())).stoppedAt?.toString()).toBe(`${p.url}/login?error=x-account-linked`);
  });

  it('a person saying no at X ends on /login with its code, never an error page, and signs nobody in', async () => {
    const before = await p.count('SELECT count(*) FROM sessions');
    x.denyNext();
    const denied = await signInWithX(new RedirectWalker());
    expect([denied.last.status, denied.last.headers.get('content-type'), denied.stoppedAt?.toString()]).toEqual([
      302,
      'text/plain; charset=utf-8',
      `${p.url}/login?error=x-denied`,
    ]);
    expect(await p.count('SELECT count(*) FROM sessions')).toBe(before);
  });
});
