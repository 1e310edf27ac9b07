// Sign in with X through the real gateway, over real HTTP and Redis, against a real OAuth 2.0
// authorization server (oidc-provider, libs/testing's X stand-in: PKCE required, client_secret_basic) and
// its /2/users/me; identity is the in-memory one speaking the real proto (the real one: e2e/x-sign-in).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { RedirectWalker, startXOAuthStandIn, type XOAuthStandIn } from '@clipit/testing';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
let seq = 0;
function xUser() {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return {
    id: `15${Date.now()}${seq}`.slice(0, 19),
    name: `X Person ${seq}`,
    username: `xp_${tag}`,
    profile_image_url: `https://pbs.twimg.com/profile_images/${tag}.jpg`,
  };
}

function xConfig(x: XOAuthStandIn) {
  return {
    X_OAUTH_CLIENT_ID: x.clientId,
    X_OAUTH_CLIENT_SECRET: x.clientSecret,
    X_OAUTH_AUTHORIZE_URL: x.authorizeUrl,
    X_OAUTH_TOKEN_URL: x.tokenUrl,
    X_API_BASE_URL: x.apiBaseUrl,
  };
}

/** Walks from the start route through X and back, stopping where the gateway sends the browser last. */
function dance(h: GatewayHarness, walker: RedirectWalker, start = '/api/login') {
  const ours = new URL(h.url).origin;
  return walker.walk(`${h.url}${start}`, (next) => next.origin === ours && !next.pathname.startsWith('/auth/twitter'));
}

const flowCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('clipit.xoauth='));

describe('sign in with X (gateway, X stand-in)', () => {
  let x: XOAuthStandIn;
  let h: GatewayHarness;
  beforeAll(async () => {
    x = await startXOAuthStandIn();
    h = await startGateway({ ...xConfig(x), RATE_LIMIT_MAX_PER_IP: 1000 });
    x.allowRedirectUri(`${h.url}/auth/twitter/callback`);
  });
  afterAll(async () => {
    await h?.stop();
    await x?.close();
  });
  beforeEach(() => {
    h.identity.clearFailures();
  });

  it('says X is available', async () => {
    const res = await fetch(`${h.url}/api/auth/providers`);
    expect(await res.json()).toEqual({ x: { available: true } });
  });

  it.each(['/api/login', '/auth/twitter'])(
    '%s redirects to X with PKCE (S256) and binds the state to a short-lived cookie',
    async (path) => {
      const res = await fetch(`${h.url}${path}`, { redirect: 'manual' });
      expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
        302,
        'text/plain; charset=utf-8',
        'no-store',
      ]);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(x.authorizeUrl);
      const q = Object.fromEntries(location.searchParams);
      expect(q).toEqual({
        response_type: 'code',
        client_id: x.clientId,
        redirect_uri: `${h.url}/auth/twitter/callback`,
        scope: 'tweet.read users.read',
        state: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge_method: 'S256',
      });
      const cookie = flowCookie(res)!;
      expect(cookie).toMatch(/^clipit\.xoauth=[\w-]{43}; Max-Age=600; Path=\/auth\/twitter; HttpOnly; SameSite=Lax$/);
      // The state and the verifier live in Redis under the cookie's hash, not in the cookie.
      expect(cookie).not.toContain(q['state']);
    },
  );

  it('signs a new X user in: PKCE and Basic client auth at X, the session cookie set, on to /connect (no wallet yet)', async () => {
    const user = xUser();
    x.signInAs(user);
    const walker = new RedirectWalker();
    const { stoppedAt, last } = await dance(h, walker);
    expect(stoppedAt?.pathname).toBe('/connect');
    expect(last.headers.get('cache-control')).toBe('no-store');
    const setCookies = last.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith('clipit.sid='))).toMatch(/HttpOnly; SameSite=Lax$/);
    expect(setCookies.find((c) => c.startsWith('clipit.xoauth='))).toMatch(/^clipit\.xoauth=;/);

    const token = x.tokenRequests.at(-1)!;
    expect(token.authorization).toBe(`Basic ${Buffer.from(`${x.clientId}:${x.clientSecret}`).toString('base64')}`);
    const form = new URLSearchParams(token.body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    expect(form.get('client_secret')).toBeNull();

    const sid = walker.cookies(new URL(h.url).origin).get('clipit.sid');
    const me = await fetch(`${h.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}` } });
    expect(await me.json()).toMatchObject({
      twitterUsername: user.username,
      displayName: user.name,
      profileImageUrl: user.profile_image_url,
      role: 'clipper',
    });
    expect(h.identity.calls.filter((c) => c.method === 'SignInWithX').at(-1)?.request).toMatchObject({
      xUserId: user.id,
      xUsername: user.username,
    });
  });

  it('sends an account that has a wallet to /clippers/dashboard (a password account linked by its handle)', async () => {
    const user = xUser();
    const signup = await fetch(`${h.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `${user.username}@example.com`,
        twitterHandle: user.username.toUpperCase(),
        walletAddress: WALLET,
        role: 'clipper',
        password: 'password123',
      }),
    });
    expect(signup.status).toBe(201);
    x.signInAs(user);
    const { stoppedAt } = await dance(h, new RedirectWalker(), '/auth/twitter');
    expect(stoppedAt?.pathname).toBe('/clippers/dashboard');
  });

  it('answers a callback whose state is not the cookie’s, a missing cookie and a second use with /login?error=x-state', async () => {
    const walker = new RedirectWalker();
    x.signInAs(xUser());
    // Stop at the gateway's callback, before it is called.
    const ours = new URL(h.url).origin;
    const { stoppedAt } = await walker.walk(`${h.url}/api/login`, (next) => next.origin === ours);
    expect(stoppedAt?.pathname).toBe('/auth/twitter/callback');
    const forged = new URL(stoppedAt!);
    forged.searchParams.set('state', 'A'.repeat(43));
    const refused = await walker.get(forged.toString());
    expect([refused.status, refused.headers.get('location')]).toEqual([302, '/login?error=x-state']);
    // The state was used up by the forged attempt: the real one is refused as well.
    const replay = await walker.get(stoppedAt!.toString());
    expect(replay.headers.get('location')).toBe('/login?error=x-state');
    const noCookie = await fetch(stoppedAt!.toString(), { redirect: 'manual' });
    expect(noCookie.headers.get('location')).toBe('/login?error=x-state');
    expect(await noCookie.text()).toBe('Redirecting to /login?error=x-state');
  });

  it('answers a person who said no on X with /login?error=x-denied, and signs nobody in', async () => {
    x.denyNext();
    const before = h.identity.calls.filter((c) => c.method === 'SignInWithX').length;
    const { stoppedAt, last } = await dance(h, new RedirectWalker());
    expect(stoppedAt?.toString()).toBe(`${h.url}/login?error=x-denied`);
    expect(last.headers.getSetCookie().some((c) => c.startsWith('clipit.sid='))).toBe(false);
    expect(h.identity.calls.filter((c) => c.method === 'SignInWithX')).toHaveLength(before);
  });

  it('answers an X user that is not one (users/me without a numeric id) with x-profile', async () => {
    x.signInAs({ id: 'not-a-number', name: 'Odd', username: 'odd_one' });
    const { stoppedAt } = await dance(h, new RedirectWalker());
    expect(stoppedAt?.pathname + stoppedAt!.search).toBe('/login?error=x-profile');
  });

  it('answers identity refusing or away with its own code', async () => {
    const mine = xUser();
    x.signInAs(mine);
    await dance(h, new RedirectWalker());
    // A signed-in password account asking to link the X account someone already signs in with.
    const up = await fetch(`${h.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `other${seq}@example.com`,
        twitterHandle: `other_${seq}_${Date.now().toString(36).slice(-3)}`,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'password123',
      }),
    });
    const sid = /clipit\.sid=([^;]+)/.exec(up.headers.get('set-cookie') ?? '')![1]!;
    const walker = new RedirectWalker();
    walker.set(new URL(h.url).origin, 'clipit.sid', sid);
    const { stoppedAt } = await dance(h, walker);
    expect(stoppedAt?.pathname + stoppedAt!.search).toBe('/login?error=x-linked-elsewhere');

    h.identity.fail('SignInWithX', status.UNAVAILABLE, 'connect ECONNREFUSED');
    x.signInAs(xUser());
    const down = await dance(h, new RedirectWalker());
    expect(down.stoppedAt?.pathname + down.stoppedAt!.search).toBe('/login?error=x-unavailable-now');
  });

  it('lists the routes in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${h.url}/api/docs`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    for (const path of ['/api/login', '/auth/twitter', '/auth/twitter/callback'])
      expect(Object.keys(doc.paths[path]!.get!.responses)).toContain('302');
    expect(doc.paths['/auth/twitter/callback']!.get!.responses['302']!.description).toContain('x-state');
    expect(doc.paths['/api/auth/providers']!.get).toBeDefined();
  });
});

describe('sign in with X, misconfigured or not configured', () => {
  let x: XOAuthStandIn;
  beforeAll(async () => {
    x = await startXOAuthStandIn();
  });
  afterAll(async () => {
    await x?.close();
  });

  it('answers a token exchange X refuses (a wrong client secret) with /login?error=x-token', async () => {
    const h = await startGateway({ ...xConfig(x), X_OAUTH_CLIENT_SECRET: 'wrong-secret' });
    try {
      x.allowRedirectUri(`${h.url}/auth/twitter/callback`);
      x.signInAs(xUser());
      const { stoppedAt } = await dance(h, new RedirectWalker());
      expect(stoppedAt?.pathname + stoppedAt!.search).toBe('/login?error=x-token');
      expect(h.identity.calls.some((c) => c.method === 'SignInWithX')).toBe(false);
    } finally {
      await h.stop();
    }
  });

  it('without a client id: providers say unavailable and every route goes to /login?error=x-unavailable', async () => {
    const h = await startGateway();
    try {
      expect(await (await fetch(`${h.url}/api/auth/providers`)).json()).toEqual({ x: { available: false } });
      for (const path of ['/api/login', '/auth/twitter', '/auth/twitter/callback?code=a&state=b']) {
        const res = await fetch(`${h.url}${path}`, { redirect: 'manual' });
        expect([res.status, res.headers.get('location'), flowCookie(res)]).toEqual([
          302,
          '/login?error=x-unavailable',
          path.includes('callback') ? expect.stringMatching(/^clipit\.xoauth=;/) : undefined,
        ]);
      }
    } finally {
      await h.stop();
    }
  });

  it('rate-limits starting like the other sign-in routes', async () => {
    const h = await startGateway({ ...xConfig(x), RATE_LIMIT_MAX_PER_IP: 2 });
    try {
      const locations = [];
      for (let i = 0; i < 3; i += 1) locations.push((await fetch(`${h.url}/api/login`, { redirect: 'manual' })).headers.get('location'));
      expect(locations.map((l) => (l!.startsWith(x.authorizeUrl) ? 'x' : l))).toEqual(['x', 'x', '/login?error=x-rate-limited']);
    } finally {
      await h.stop();
    }
  });
});
