// The gateway's HTTP behaviour end to end over real HTTP and real Redis, with identity replaced by an
// in-memory gRPC server speaking the real proto (so every refusal can be checked against the calls
// that did, or did not, reach identity). The journeys with the real identity live in e2e/.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let seq = 0;
const signup = (patch: Record<string, unknown> = {}) => ({
  email: `p${++seq}@example.com`,
  twitterHandle: `user_${seq}_${Date.now().toString(36).slice(-4)}`,
  walletAddress: WALLET,
  role: 'clipper',
  password: 'password123',
  ...patch,
});

function post(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
  return fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function expectText(res: Response, status: number, text: string | RegExp) {
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status, type: 'text/plain; charset=utf-8' });
  const body = await res.text();
  if (typeof text === 'string') expect(body).toBe(text);
  else expect(body).toMatch(text);
}

/** Sends bytes Node's HTTP parser may refuse (no client would send them) and answers what came back. */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const CONTROL = 'Text must not contain control characters (such as NUL); only tabs and line breaks are allowed';

const sidOf = (res: Response) => /clipit\.sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

describe('gateway over HTTP (fake identity, real Redis)', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway({
      RATE_LIMIT_MAX_PER_IP: 1000,
      RATE_LIMIT_MAX_PER_HANDLE: 1000,
      BODY_LIMIT_BYTES: 64 * 1024,
      PROFILE_IMAGE_MAX_BYTES: 256 * 1024,
    });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.identity.clearFailures();
  });

  describe('correlation and headers', () => {
    it('echoes a given x-correlation-id and carries it on the gRPC call', async () => {
      const res = await fetch(`${h.url}/api/tokens`, { headers: { 'x-correlation-id': 'test-corr-123' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-correlation-id')).toBe('test-corr-123');
      expect(h.identity.calls.at(-1)).toMatchObject({ method: 'ListTokens', correlationId: 'test-corr-123' });
    });

    it('carries it on the session lookup the guard makes too', async () => {
      const up = await post(`${h.url}/api/auth/signup`, signup());
      const sid = sidOf(up);
      await up.text();
      await fetch(`${h.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}`, 'x-correlation-id': 'me-corr-1' } });
      expect(h.identity.calls.at(-1)).toMatchObject({ method: 'ResolveSessionWithExpiry', correlationId: 'me-corr-1' });
    });

    it('replaces an unusable id with a fresh one', async () => {
      const res = await fetch(`${h.url}/api/tokens`, { headers: { 'x-correlation-id': 'bad id with spaces' } });
      const id = res.headers.get('x-correlation-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(h.identity.calls.at(-1)?.correlationId).toBe(id);
    });

    it('marks API answers nosniff and no-store, errors included', async () => {
      for (const res of [await fetch(`${h.url}/api/tokens`), await fetch(`${h.url}/api/user/me`)]) {
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cache-control')).toBe('no-store');
        await res.arrayBuffer();
      }
    });

    it('sends JSON answers of a packet or more compressed when the client takes it, never small ones or errors', async () => {
      const { request } = await import('node:http');
      // node:http, not fetch: fetch would undo the coding before the test sees it.
      const raw = (path: string, acceptEncoding?: string) =>
        new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
          const url = new URL(path, h.url);
          const req = request(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          });
          req.on('error', reject);
          req.end();
        });
      const plain = await raw('/api/docs');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['vary']).toBe('Accept-Encoding');
      const document = JSON.parse(plain.body.toString('utf8')) as { openapi: string };
      expect(document.openapi).toMatch(/^3\.1/);
      const br = await raw('/api/docs', 'gzip, deflate, br');
      expect([br.status, br.headers['content-encoding'], br.headers['content-length']]).toEqual([200, 'br', String(br.body.length)]);
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      expect(brotliDecompressSync(br.body).toString('utf8')).toBe(plain.body.toString('utf8'));
      const gz = await raw('/api/docs', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString('utf8')).toBe(plain.body.toString('utf8'));
      // Small answers and errors go as they are.
      const small = await raw('/api/tokens', 'br');
      expect(small.headers['content-encoding']).toBeUndefined();
      const missing = await raw('/api/nope', 'br');
      expect([missing.status, missing.headers['content-encoding'], missing.body.toString('utf8')]).toEqual([
        404,
        undefined,
        'No such route: GET /api/nope',
      ]);
    });

    it('answers unknown API routes 404 in text', async () => {
      await expectText(await fetch(`${h.url}/api/nope`), 404, 'No such route: GET /api/nope');
      await expectText(await post(`${h.url}/api/user/me`, {}), 404, 'No such route: POST /api/user/me');
    });
  });

  describe('the payout wallet and the sessions list (ADR 0032)', () => {
    const OTHER = 'So11111111111111111111111111111111111111112';
    const write = (path: string, body: unknown, cookie: string, method = 'POST') =>
      post(`${h.url}${path}`, body, { cookie, origin: new URL(h.url).origin }, method);

    it('replaces a wallet only with the current password, sending identity the password and this session', async () => {
      const up = await post(`${h.url}/api/auth/signup`, signup());
      const sid = sidOf(up)!;
      await up.arrayBuffer();
      const cookie = `clipit.sid=${sid}`;
      await expectText(
        await write('/api/user/profile', { walletAddress: OTHER }, cookie, 'PATCH'),
        403,
        'Enter your current password to change your wallet address',
      );
      await expectText(
        await write('/api/user/profile', { walletAddress: OTHER, currentPassword: 'not it' }, cookie, 'PATCH'),
        403,
        'Current password is incorrect',
      );
      await expectText(
        await write('/api/user/profile', { walletAddress: OTHER, currentPassword: 42 }, cookie, 'PATCH'),
        400,
        'currentPassword must be text',
      );
      const ok = await write('/api/user/profile', { walletAddress: OTHER, currentPassword: 'password123' }, cookie, 'PATCH');
      expect([ok.status, ((await ok.json()) as { walletAddress: string }).walletAddress]).toEqual([200, OTHER]);
      const call = h.identity.calls.filter((c) => c.method === 'UpdateWallet').at(-1)!;
      expect(call.request).toEqual({ userId: expect.any(String), walletAddress: OTHER, currentPassword: 'password123', sid });
    });

    it('lists the sessions, this one marked, and signs out everywhere else', async () => {
      const body = signup();
      const up = await post(`${h.url}/api/auth/signup`, body);
      const cookie = `clipit.sid=${sidOf(up)}`;
      await up.arrayBuffer();
      const login = await post(`${h.url}/api/auth/login`, { twitterHandle: body.twitterHandle, password: body.password });
      const elsewhere = `clipit.sid=${sidOf(login)}`;
      await login.arrayBuffer();
      const listed = await fetch(`${h.url}/api/user/sessions`, { headers: { cookie } });
      const { sessions } = (await listed.json()) as {
        sessions: { current: boolean; device: string; address: string | null; method: string | null }[];
      };
      expect(sessions.map((s) => s.current).sort()).toEqual([false, true]);
      expect(sessions[0]).toEqual(expect.objectContaining({ device: 'Chrome on Linux', address: '127.0.0.0/24', method: 'password' }));
      await expectText(await fetch(`${h.url}/api/user/sessions`), 401, 'Not signed in');
      await expectText(await post(`${h.url}/api/user/sessions/sign-out-others`, {}, { cookie }), 403, 'Cross-site request refused');

      const ended = await write('/api/user/sessions/sign-out-others', {}, cookie);
      expect([ended.status, await ended.json()]).toEqual([200, { endedSessions: 1 }]);
      expect((await fetch(`${h.url}/api/user/me`, { headers: { cookie: elsewhere } })).status).toBe(401);
      expect((await fetch(`${h.url}/api/user/me`, { headers: { cookie } })).status).toBe(200);
    });
  });

  describe('cross-site check', () => {
    it('refuses a state-changing request from another origin before identity sees it', async () => {
      const before = h.identity.calls.length;
      await expectText(
        await post(`${h.url}/api/auth/login`, { twitterHandle: 'a', password: 'b' }, { origin: 'https://evil.example' }),
        403,
        'Cross-site request refused',
      );
      await expectText(await post(`${h.url}/api/logout`, {}, { referer: 'https://evil.example/page' }), 403, 'Cross-site request refused');
      await expectText(
        await post(`${h.url}/api/user/profile`, { walletAddress: WALLET }, { origin: 'null' }, 'PATCH'),
        403,
        'Cross-site request refused',
      );
      expect(h.identity.calls.length).toBe(before);
    });

    it('refuses even a body it could not parse, since the check runs first', async () => {
      const res = await fetch(`${h.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
        body: 'x',
      });
      await expectText(res, 403, 'Cross-site request refused');
    });

    it('refuses a write that carries the session cookie and neither Origin nor Referer; the session lives on', async () => {
      const up = await post(`${h.url}/api/auth/signup`, signup());
      const cookie = `clipit.sid=${sidOf(up)}`;
      await up.arrayBuffer();
      const before = h.identity.calls.length;
      await expectText(
        await post(`${h.url}/api/user/profile`, { walletAddress: WALLET }, { cookie }, 'PATCH'),
        403,
        'Cross-site request refused',
      );
      await expectText(await post(`${h.url}/api/logout`, {}, { cookie }), 403, 'Cross-site request refused');
      await expectText(
        await post(`${h.url}/api/submissions`, { name: 'x', url: 'https://x.com/a/status/1' }, { cookie: `theme=dark; ${cookie}` }),
        403,
        'Cross-site request refused',
      );
      await expectText(
        await post(`${h.url}/api/auth/login`, { twitterHandle: 'a', password: 'b' }, { cookie, origin: '' }),
        403,
        'Cross-site request refused',
      );
      expect(h.identity.calls.length).toBe(before);
      const own = await post(`${h.url}/api/user/profile`, { walletAddress: WALLET }, { cookie, origin: new URL(h.url).origin }, 'PATCH');
      expect(own.status).toBe(200);
      await own.arrayBuffer();
      const me = await fetch(`${h.url}/api/user/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      await me.arrayBuffer();
    });

    it('lets writes without the cookie come without Origin: bearer tokens, sign-up from a script, the upload URL (its token authenticates it)', async () => {
      const bearer = await post(`${h.url}/api/logout`, {}, { authorization: 'Bearer some-admin-token' });
      expect(bearer.status).toBe(200);
      await bearer.arrayBuffer();
      const script = await post(`${h.url}/api/auth/signup`, signup());
      expect(script.status).toBe(201);
      await script.arrayBuffer();
      // The upload route never reads the cookie, so one coming along does not make the PUT cookie-bound.
      const put = await fetch(`${h.url}/api/submissions/uploads/0f4b2a9e-1111-4222-8333-0123456789ab?token=abc`, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4', cookie: 'clipit.sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
        body: new Uint8Array(16),
      });
      expect(put.status).not.toBe(403);
      expect(put.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      await put.arrayBuffer();
    });

    it('accepts our own origin, a same-origin referer, and requests with neither', async () => {
      const host = new URL(h.url).host;
      const own = await post(`${h.url}/api/auth/signup`, signup(), { origin: `http://${host}` });
      expect(own.status).toBe(201);
      await own.arrayBuffer();
      const ref = await post(`${h.url}/api/logout`, {}, { referer: `http://${host}/dashboard` });
      expect(ref.status).toBe(200);
      await ref.arrayBuffer();
      const bare = await post(`${h.url}/api/logout`, {});
      expect(bare.status).toBe(200);
      await bare.arrayBuffer();
    });

    it('lets safe methods through from anywhere', async () => {
      const res = await fetch(`${h.url}/api/tokens`, { headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
  });

  describe('bodies', () => {
    it('answers 413 for a JSON body over BODY_LIMIT_BYTES', async () => {
      await expectText(
        await post(`${h.url}/api/auth/login`, { twitterHandle: 'a', password: 'x'.repeat(70 * 1024) }),
        413,
        'Request body is too large',
      );
    });

    it('answers 400 for malformed JSON and for prototype pollution', async () => {
      const bad = await fetch(`${h.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"twitterHandle":',
      });
      await expectText(bad, 400, 'Request body is not valid JSON');
      const proto = await fetch(`${h.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"__proto__":{"admin":true}}',
      });
      await expectText(proto, 400, 'Request body is not valid JSON');
    });

    it('answers 415 for other content types (forms, text)', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await fetch(`${h.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: 'twitterHandle=a&password=b',
        });
        await expectText(res, 415, /^Unsupported content type/);
      }
    });

    it('answers 415 for a form sent to a route that takes no upload, and for a body without a type', async () => {
      const form = new FormData();
      form.append('twitterHandle', 'a');
      form.append('password', 'b');
      await expectText(await fetch(`${h.url}/api/auth/login`, { method: 'POST', body: form }), 415, /^Unsupported content type/);
      const untyped = await fetch(`${h.url}/api/auth/login`, {
        method: 'POST',
        body: new Uint8Array(Buffer.from('{"twitterHandle":"a","password":"b"}')),
      });
      await expectText(untyped, 415, /^Unsupported content type/);
    });

    it('answers 400 for a JSON value that is not an object, and for wrong types', async () => {
      await expectText(await post(`${h.url}/api/auth/login`, ['a']), 400, 'Request body must be a JSON object');
      await expectText(await post(`${h.url}/api/auth/login`, { twitterHandle: 'a', password: 123 }), 400, 'Password must be text');
    });

    it('reads an empty JSON body as no body', async () => {
      const res = await fetch(`${h.url}/api/logout`, { method: 'POST', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      const login = await fetch(`${h.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
      await expectText(login, 400, 'Twitter handle is required');
    });
  });

  describe('bad input: control characters, one rule at the edge', () => {
    it.each([
      ['/api/auth/signup', () => signup({ displayName: 'Nul\u0000Person' })],
      ['/api/auth/login', () => ({ twitterHandle: 'someone\u0000', password: 'password123' })],
      ['/api/auth/reset-password', () => ({ twitterHandle: '\u0000', email: 'a@b.co', newPassword: 'longenough' })],
      ['/api/auth/login', () => ({ twitterHandle: 'someone', password: 'pass\u001bword' })],
      ['/api/auth/login', () => ({ twitterHandle: 'someone', password: 'x', 'odd\u0000key': 1 })],
      ['/api/auth/signup', () => signup({ nested: [{ deep: ['\u0007'] }] })],
    ])('POST %s with a control character answers 400 in text and calls nobody', async (path, body) => {
      const before = h.identity.calls.length;
      await expectText(await post(`${h.url}${path}`, body()), 400, CONTROL);
      expect(h.identity.calls.length).toBe(before);
    });

    it('refuses them in the query string, path parameters and multipart fields too', async () => {
      await expectText(await fetch(`${h.url}/api/tokens?q=%00`), 400, CONTROL);
      await expectText(await fetch(`${h.url}/media/profile-images/a%00b.png`), 400, CONTROL);
      const form = new FormData();
      for (const [k, v] of Object.entries(signup({ displayName: 'Form\u0000Person' }))) form.append(k, String(v));
      const before = h.identity.calls.length;
      await expectText(await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: form }), 400, CONTROL);
      expect(h.identity.calls.length).toBe(before);
    });

    it('lets tabs and line breaks through (free text holds them)', async () => {
      const res = await post(`${h.url}/api/auth/login`, { twitterHandle: 'nobody_here', password: 'tab\there\r\nnewline' });
      await expectText(res, 401, 'Invalid Twitter handle or password');
    });

    it('answers a deeply nested body in text, not with a crash', async () => {
      const deep = '['.repeat(20_000) + ']'.repeat(20_000);
      const res = await fetch(`${h.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
      await expectText(res, 400, 'Request body must be a JSON object');
    });
  });

  describe('framework errors answer in text too', () => {
    it('answers 414 in text for a path parameter over the router’s limit', async () => {
      const res = await fetch(`${h.url}/api/submissions/uploads/${'a'.repeat(10_000)}?token=x`, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: new Uint8Array(4),
      });
      await expectText(res, 414, 'The address is too long');
      // The media route's key is a wildcard, which the router does not bound: it answers for itself.
      await expectText(await fetch(`${h.url}/media/${'b'.repeat(10_000)}`), 404, 'Not found');
    });

    it('answers 400 in text for a path whose encoding does not decode', async () => {
      await expectText(await fetch(`${h.url}/media/profile-images/%E0%A4%A`), 400, 'The address is not valid');
    });

    it('answers what Node’s parser refuses in text: oversized headers, garbage', async () => {
      const big = await rawExchange(h.url, `GET /api/tokens HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 431 [^\r]*\r\n/);
      expect(big).toMatch(/\r\nContent-Type: text\/plain; charset=utf-8\r\n/);
      expect(big.endsWith('\r\n\r\nRequest headers are too large')).toBe(true);
      const garbage = await rawExchange(h.url, 'NOT HTTP AT ALL\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 [^\r]*\r\nContent-Type: text\/plain; charset=utf-8\r\n/);
      expect(garbage.endsWith('The request could not be read')).toBe(true);
    });

    it('answers the multipart plugin’s refusals in text', async () => {
      const many = new FormData();
      for (let i = 0; i < 40; i++) many.append(`f${i}`, 'x');
      const tooMany = await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: many });
      expect(tooMany.status).toBeGreaterThanOrEqual(400);
      expect(tooMany.status).toBeLessThan(500);
      expect(tooMany.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect((await tooMany.text()).length).toBeGreaterThan(0);
      const broken = await fetch(`${h.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
        body: '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nno end in sight',
      });
      expect(broken.status).toBeGreaterThanOrEqual(400);
      expect(broken.status).toBeLessThan(500);
      expect(broken.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      await broken.arrayBuffer();
      const noBoundary = await fetch(`${h.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data' },
        body: 'x',
      });
      expect(noBoundary.status).toBeGreaterThanOrEqual(400);
      expect(noBoundary.status).toBeLessThan(500);
      expect(noBoundary.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      await noBoundary.arrayBuffer();
    });

    it('answers unknown methods and odd verbs on known paths in text', async () => {
      for (const method of ['DELETE', 'PUT', 'OPTIONS']) {
        const res = await fetch(`${h.url}/api/user/me`, { method, headers: { origin: new URL(h.url).origin } });
        expect({ method, status: res.status, type: res.headers.get('content-type') }).toEqual({
          method,
          status: 404,
          type: 'text/plain; charset=utf-8',
        });
        await res.arrayBuffer();
      }
    });
  });

  describe('errors from identity', () => {
    it('passes the owner’s message for client errors', async () => {
      const body = signup();
      const first = await post(`${h.url}/api/auth/signup`, body);
      expect(first.status).toBe(201);
      await first.arrayBuffer();
      await expectText(
        await post(`${h.url}/api/auth/signup`, { ...body, email: 'other@example.com' }),
        409,
        'That Twitter handle is already registered',
      );
    });

    it('answers 503 when identity is unavailable and 500 without internals when it fails', async () => {
      h.identity.fail('ListTokens', status.UNAVAILABLE, 'connect ECONNREFUSED 10.1.2.3:50051');
      await expectText(await fetch(`${h.url}/api/tokens`), 503, 'Service temporarily unavailable');
      h.identity.fail('ListTokens', status.INTERNAL, 'duplicate key value violates unique constraint "users_pkey"');
      await expectText(await fetch(`${h.url}/api/tokens`), 500, 'Something went wrong. Please try again.');
    });

    it('answers a sign-up, log-in or reset request that identity did not answer in time as the designed busy 503, never a 504 (ADR 0044)', async () => {
      const cases = [
        ['SignUp', '/api/auth/signup', signup(), 'sign-ups'],
        ['LogIn', '/api/auth/login', { twitterHandle: 'someone', password: 'password123' }, 'sign-ins'],
        [
          'RequestPasswordReset',
          '/api/auth/reset-password',
          { twitterHandle: 'someone', email: 'a@b.co', newPassword: 'longenough' },
          'password resets',
        ],
      ] as const;
      for (const [method, path, body, what] of cases) {
        h.identity.fail(method, status.DEADLINE_EXCEEDED, 'Deadline exceeded after 5.002s,LB pick: 0.001s,remote_addr=10.1.2.3:50051');
        const res = await post(`${h.url}${path}`, body);
        const seconds = res.headers.get('retry-after');
        expect(seconds).toMatch(/^(?:[5-9]|1[0-5])$/);
        expect(res.headers.get('set-cookie')).toBeNull();
        await expectText(res, 503, `Too many ${what} right now; please try again in ${seconds} seconds`);
      }
      // A timeout elsewhere is still the timeout it is.
      h.identity.fail('ListTokens', status.DEADLINE_EXCEEDED, 'Deadline exceeded');
      await expectText(await fetch(`${h.url}/api/tokens`), 504, 'The service took too long to answer. Please try again.');
    });

    it('answers 503, not 401, when the session cannot be checked', async () => {
      h.identity.fail('ResolveSessionWithExpiry', status.UNAVAILABLE, 'down');
      await expectText(
        await fetch(`${h.url}/api/user/me`, { headers: { cookie: 'clipit.sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } }),
        503,
        'Service temporarily unavailable',
      );
    });

    it('reports identity down on /health/ready', async () => {
      h.identity.fail('ListTokens', status.UNAVAILABLE, 'down');
      const res = await fetch(`${h.url}/health/ready`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'unavailable', checks: { redis: 'ok', identity: expect.stringMatching(/^down/) } });
      h.identity.clearFailures();
      const ok = await fetch(`${h.url}/health/ready`);
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
    });
  });

  describe('sessions', () => {
    it('sets clipit.sid httpOnly, SameSite=Lax, Path=/, with the session lifetime', async () => {
      const res = await post(`${h.url}/api/auth/signup`, signup());
      expect(res.status).toBe(201);
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^clipit\.sid=[\w-]{43}; Max-Age=(1209[56]\d\d); Path=\/; HttpOnly; SameSite=Lax$/);
      await res.arrayBuffer();
    });

    it('re-issues the cookie when identity extends the session, and not otherwise', async () => {
      const up = await post(`${h.url}/api/auth/signup`, signup());
      const sid = sidOf(up)!;
      await up.arrayBuffer();
      const plain = await fetch(`${h.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}` } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('set-cookie')).toBeNull();
      await plain.arrayBuffer();

      h.identity.renewals.add(sid);
      const renewed = await fetch(`${h.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}` } });
      expect(renewed.status).toBe(200);
      expect(renewed.headers.get('set-cookie')).toMatch(
        new RegExp(`^clipit\\.sid=${sid}; Max-Age=(1209[56]\\d\\d); Path=/; HttpOnly; SameSite=Lax$`),
      );
      await renewed.arrayBuffer();
    });

    it('clears a cookie naming a session identity does not know', async () => {
      const res = await fetch(`${h.url}/api/user/me`, { headers: { cookie: 'clipit.sid=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' } });
      await expectText(res, 401, 'Not signed in');
      expect(res.headers.get('set-cookie')).toMatch(/^clipit\.sid=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
    });

    it('does not bother identity with a cookie that cannot be a session id', async () => {
      const before = h.identity.calls.length;
      await expectText(await fetch(`${h.url}/api/user/me`, { headers: { cookie: 'clipit.sid=x' } }), 401, 'Not signed in');
      expect(h.identity.calls.length).toBe(before);
    });

    it('logs out: ends the session at identity and clears the cookie; GET redirects to /', async () => {
      const up = await post(`${h.url}/api/auth/signup`, signup());
      const sid = sidOf(up)!;
      await up.arrayBuffer();
      const out = await fetch(`${h.url}/api/logout`, { redirect: 'manual', headers: { cookie: `clipit.sid=${sid}` } });
      expect(out.status).toBe(302);
      expect(out.headers.get('location')).toBe('/');
      expect(out.headers.get('set-cookie')).toMatch(/^clipit\.sid=; Max-Age=0/);
      await out.arrayBuffer();
      expect(h.identity.sessions.has(sid)).toBe(false);
      await expectText(await fetch(`${h.url}/api/user/me`, { headers: { cookie: `clipit.sid=${sid}` } }), 401, 'Not signed in');
    });
  });

  describe('sign-up form (multipart)', () => {
    const form = (fields: Record<string, string>, file?: { bytes: Buffer; type: string; name?: string; field?: string }) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.append(k, v);
      if (file)
        fd.append(file.field ?? 'profilePicture', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name ?? 'me.png');
      return fd;
    };
    const fields = () => {
      const s = signup({ tokenLink: '', claimCode: '', confirmPassword: 'password123' });
      return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, String(v)]));
    };

    it('passes the picture to identity with the type its bytes have', async () => {
      const f = fields();
      const res = await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: form(f, { bytes: PNG, type: 'image/png' }) });
      expect(res.status).toBe(201);
      expect(((await res.json()) as any).user.profileImageUrl).toMatch(/^\/media\/profile-images\//);
      const call = h.identity.calls.filter((c) => c.method === 'SignUp').at(-1)!;
      expect(call.request).toMatchObject({ twitterHandle: f['twitterHandle'], profilePictureContentType: 'image/png' });
      expect(Buffer.from(call.request['profilePicture'] as Uint8Array).equals(PNG)).toBe(true);
    });

    it('accepts the form without a picture, and an empty file input', async () => {
      const res = await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: form(fields()) });
      expect(res.status).toBe(201);
      await res.arrayBuffer();
      const empty = await fetch(`${h.url}/api/auth/signup`, {
        method: 'POST',
        body: form(fields(), { bytes: Buffer.alloc(0), type: 'application/octet-stream', name: '' }),
      });
      expect(empty.status).toBe(201);
      await empty.arrayBuffer();
    });

    it.each([
      ['a text file', { bytes: Buffer.from('hello'), type: 'text/plain' }, 400, 'Profile picture must be an image file'],
      ['an SVG', { bytes: Buffer.from('<svg/>'), type: 'image/svg+xml' }, 400, 'Profile picture must be a PNG, JPEG, GIF or WebP image'],
      [
        'HTML claiming to be PNG',
        { bytes: Buffer.from('<html><script>alert(1)</script></html>'), type: 'image/png' },
        400,
        'Profile picture must be an image file',
      ],
      [
        'a picture over the limit',
        { bytes: Buffer.concat([PNG, Buffer.alloc(300 * 1024)]), type: 'image/png' },
        413,
        'Profile picture must be 256 KB or smaller',
      ],
      ['a file in another field', { bytes: PNG, type: 'image/png', field: 'avatar' }, 400, /^Unexpected file field/],
    ])('refuses %s and signs nobody up', async (_label, file, code, text) => {
      const f = fields();
      const before = h.identity.calls.filter((c) => c.method === 'SignUp').length;
      await expectText(await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: form(f, file) }), code, text);
      expect(h.identity.calls.filter((c) => c.method === 'SignUp').length).toBe(before);
    });

    it('validates the text fields of the form like JSON', async () => {
      await expectText(
        await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: form({ ...fields(), walletAddress: 'nope' }) }),
        400,
        'Please enter a valid Solana wallet address',
      );
      await expectText(
        await fetch(`${h.url}/api/auth/signup`, { method: 'POST', body: form({ ...fields(), extra: '1' }) }),
        400,
        'Unknown field: extra',
      );
    });
  });

  describe('metrics and docs', () => {
    it('records request durations per route', async () => {
      await (await fetch(`${h.url}/api/tokens`)).arrayBuffer();
      const text = await (await fetch(`${h.url}/metrics`)).text();
      expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*method="GET"[^}]*route="\/api\/tokens"[^}]*status="200"[^}]*\} \d+/);
      expect(text).toMatch(/route="unmatched"/);
    });

    it('serves the versioned read API in a document of its own: its routes only, each behind an API key with its scope', async () => {
      const doc = (await (await fetch(`${h.url}/api/docs/v1`)).json()) as any;
      expect(doc.info.title).toBe('CLIP IT API v1');
      expect(Object.keys(doc.paths).sort()).toEqual([
        '/api/v1/campaigns',
        '/api/v1/campaigns/{id}/clips',
        '/api/v1/earnings',
        '/api/v1/leaderboards/clippers',
        '/api/v1/leaderboards/clips',
        '/api/v1/payouts',
        '/api/v1/submissions',
        '/api/v1/submissions/{id}/views',
      ]);
      expect(doc.paths['/api/v1/leaderboards/clips'].get.security).toEqual([{ apiKey: ['leaderboards:read'] }]);
      expect(doc.paths['/api/v1/payouts'].get.security).toEqual([{ apiKey: ['submissions:read'] }]);
      expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey']);
      // Nothing of the site's in it, and nothing of it in the site's.
      const site = (await (await fetch(`${h.url}/api/docs`)).json()) as any;
      expect(Object.keys(site.paths).filter((p) => p.startsWith('/api/v1/'))).toEqual([]);
    });

    it('serves the OpenAPI document listing every route', async () => {
      const doc = (await (await fetch(`${h.url}/api/docs`)).json()) as any;
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths).sort()).toEqual(
        [
          '/api/admin/appeals',
          '/api/admin/appeals/{id}/decide',
          '/api/admin/audit',
          '/api/admin/campaigns',
          '/api/admin/campaigns/{id}/approve',
          '/api/admin/campaigns/{id}/reject',
          '/api/admin/earnings/{id}/release',
          '/api/admin/earnings/{id}/void',
          '/api/admin/placeholder-streamers',
          '/api/admin/submissions',
          '/api/admin/submissions/{id}/add-to-feed',
          '/api/admin/submissions/{id}/approve',
          '/api/admin/submissions/{id}/approve-and-add-to-feed',
          '/api/admin/submissions/{id}/reject',
          '/api/admin/submissions/{id}/remove-from-feed',
          '/api/admin/system-metrics',
          '/api/admin/verify-password',
          '/api/clipper-applications',
          '/api/clipper-hires/{hireId}/rating',
          '/api/clipper-profile',
          '/api/clippers/{clipperId}/hire',
          '/api/clippers/{clipperId}/profile',
          '/api/cpm-campaigns',
          '/api/hires',
          '/api/hires/{hireId}/accept',
          '/api/hires/{hireId}/complete',
          '/api/hires/{hireId}/decline',
          '/api/keys',
          '/api/keys/{id}',
          '/api/clipper/{userId}',
          '/api/clipper/refresh-points',
          '/api/clipper/stats/{userId}',
          '/api/dashboard',
          '/api/earnings',
          '/api/earnings/payouts',
          '/api/payouts',
          '/api/tiers',
          '/api/user/banner',
          '/api/user/banner/upload-url',
          '/api/user/image-uploads/{uploadId}',
          '/api/user/profile-picture',
          '/api/user/profile-picture/upload-url',
          '/api/user/update-profile',
          '/api/auth/verify-email',
          '/api/auth/verify-email/send',
          '/api/creators/{tab}',
          '/api/featured-clippers',
          '/api/feed/clips',
          '/api/leaderboard/posts',
          '/api/leaderboard/stats',
          '/api/leaderboard/users',
          '/api/tagged-videos/{userId}',
          '/api/top-streamers',
          '/api/twitter/oembed',
          '/api/appeals/mine',
          '/api/auth/login',
          '/api/auth/providers',
          '/api/auth/reset-password',
          '/api/auth/reset-password/confirm',
          '/api/auth/signup',
          '/api/auth/user',
          '/api/docs',
          '/api/docs/v1',
          '/api/feed/clips/{clipId}/like',
          '/api/follow/{userId}',
          '/api/followers/list/{userId}',
          '/api/followers/live',
          '/api/followers/{userId}',
          '/api/following/{userId}',
          '/api/live/stream',
          '/api/login',
          '/api/logout',
          '/api/streamers',
          '/api/submissions',
          '/api/submissions/{id}/appeal',
          '/api/submissions/{id}/metrics-history',
          '/api/submissions/finalize-video-upload',
          '/api/submissions/stream',
          '/api/submissions/upload-video',
          '/api/submissions/uploads/{videoId}',
          '/api/submissions/video-upload-url',
          '/api/tokens',
          '/api/tokens/mine',
          '/api/tokens/{id}',
          '/api/unfollow/{userId}',
          '/api/user/me',
          '/api/user/profile',
          '/api/user/sessions',
          '/api/user/sessions/sign-out-others',
          '/api/users/go-live',
          '/api/users/go-offline',
          '/api/users/stream-time',
          '/api/webhooks',
          '/api/webhooks/{id}',
          '/api/webhooks/{id}/deliveries',
          '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
          '/api/webhooks/{id}/enable',
          '/api/webhooks/{id}/rotate-secret',
          '/auth/twitter',
          '/auth/twitter/callback',
          '/health/live',
          '/health/ready',
          '/media/{key}',
          '/metrics',
        ].sort(),
      );
      expect(Object.keys(doc.paths['/api/logout']).sort()).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths['/api/feed/clips/{clipId}/like']).sort()).toEqual(['delete', 'post']);
      expect(doc.paths['/api/following/{userId}'].get.security).toEqual([]); // open to visitors (a session only adds isFollowing)
      expect(doc.paths['/api/feed/clips'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
        'query:limit',
        'query:cursor',
      ]);
      expect(Object.keys(doc.paths['/api/live/stream'].get.responses['200'].content)).toEqual(['text/event-stream']);
      expect(doc.paths['/api/admin/submissions'].get.security).toEqual([{ adminBearer: [] }]);
      expect(doc.paths['/api/admin/submissions'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
        'query:limit',
        'query:cursor',
        'query:status',
        'query:platform',
        'query:flags',
      ]);
      expect(Object.keys(doc.paths['/api/submissions']).sort()).toEqual(['get', 'post']);
      expect(doc.paths['/api/clipper-applications'].get.security).toEqual([{ adminBearer: [] }]);
      expect(doc.paths['/api/clipper-applications'].post.responses).toHaveProperty('201');
      expect(Object.keys(doc.paths['/api/submissions/upload-video'].post.requestBody.content)).toContain('multipart/form-data');
      expect(doc.paths['/api/user/profile'].patch.requestBody.content['application/json'].schema.required).toEqual(['walletAddress']);
    });

    it('serves the document the web apps are typed from (docs/api/openapi.json, built without starting the gateway)', async () => {
      const served = await (await fetch(`${h.url}/api/docs`)).json();
      const committed = JSON.parse(await readFile(new URL('../../../../docs/api/openapi.json', import.meta.url), 'utf8'));
      expect(served).toEqual(committed);
    });
  });
});

describe('gateway behind a proxy and with strict settings', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway({
      TRUST_PROXY: 'true',
      PUBLIC_ORIGIN: 'https://clipit.example',
      RATE_LIMIT_MAX_PER_IP: 3,
      RATE_LIMIT_MAX_PER_HANDLE: 2,
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('marks the cookie Secure when the proxy says the browser used https', async () => {
    const res = await post(`${h.url}/api/auth/signup`, signup(), { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.10' });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
    await res.arrayBuffer();
    const plain = await post(`${h.url}/api/auth/signup`, signup(), { 'x-forwarded-for': '198.51.100.11' });
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
    await plain.arrayBuffer();
  });

  it('accepts only PUBLIC_ORIGIN as our origin', async () => {
    const good = await post(`${h.url}/api/logout`, {}, { origin: 'https://clipit.example' });
    expect(good.status).toBe(200);
    await good.arrayBuffer();
    await expectText(await post(`${h.url}/api/logout`, {}, { origin: h.url }), 403, 'Cross-site request refused');
  });

  it('limits attempts per handle across IPs, with Retry-After, before identity is asked', async () => {
    const ips = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
    const statuses = [];
    for (const ip of ips) {
      const res = await post(`${h.url}/api/auth/login`, { twitterHandle: 'Victim', password: 'guess-guess' }, { 'x-forwarded-for': ip });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
        await expectText(res, 429, 'Too many attempts. Please wait a few minutes and try again.');
      } else {
        await expectText(res, 401, 'Invalid Twitter handle or password');
      }
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect(h.identity.calls.filter((c) => c.method === 'LogIn')).toHaveLength(2);
  });

  it('limits password resets per account across addresses: the third for one handle is 429 with Retry-After, identity not asked', async () => {
    const reset = (ip: string) =>
      post(
        `${h.url}/api/auth/reset-password`,
        { twitterHandle: 'ResetVictim', email: 'victim@example.com', newPassword: 'attacker-password' },
        { 'x-forwarded-for': ip },
      );
    const asked = () => h.identity.calls.filter((c) => c.method === 'RequestPasswordReset').length;
    for (const ip of ['198.51.100.61', '198.51.100.62']) {
      const res = await reset(ip);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const before = asked();
    const limited = await reset('198.51.100.63');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    await expectText(limited, 429, 'Too many attempts. Please wait a few minutes and try again.');
    expect(asked()).toBe(before);
  });

  it('limits wallet changes per account across addresses: past the limit, 429 with Retry-After, before identity is asked', async () => {
    const up = await post(`${h.url}/api/auth/signup`, signup(), { 'x-forwarded-for': '198.51.100.40' });
    const cookie = `clipit.sid=${sidOf(up)}`;
    await up.arrayBuffer();
    const change = (ip: string, currentPassword: string) =>
      post(
        `${h.url}/api/user/profile`,
        { walletAddress: 'So11111111111111111111111111111111111111112', currentPassword },
        { cookie, origin: 'https://clipit.example', 'x-forwarded-for': ip },
        'PATCH',
      );
    await expectText(await change('198.51.100.41', 'guess one'), 403, 'Current password is incorrect');
    await expectText(await change('198.51.100.42', 'guess two'), 403, 'Current password is incorrect');
    const asked = () => h.identity.calls.filter((c) => c.method === 'UpdateWallet').length;
    const before = asked();
    const limited = await change('198.51.100.43', 'password123');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    await expectText(limited, 429, 'Too many attempts. Please wait a few minutes and try again.');
    expect(asked()).toBe(before);
  });

  it('limits attempts per client IP (from X-Forwarded-For behind the trusted proxy)', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(
        `${h.url}/api/auth/reset-password`,
        { twitterHandle: `h${i}`, email: 'a@b.co', newPassword: 'longenough' },
        { 'x-forwarded-for': '203.0.113.50' },
      );
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    // Asked for, with the same answer whether or not an account matched; the fourth from that address is refused.
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = await post(
      `${h.url}/api/auth/reset-password`,
      { twitterHandle: 'h9', email: 'a@b.co', newPassword: 'longenough' },
      { 'x-forwarded-for': '203.0.113.51' },
    );
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it('does not count requests refused by validation', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await post(`${h.url}/api/auth/login`, { twitterHandle: '' }, { 'x-forwarded-for': '203.0.113.77' });
      await expectText(res, 400, 'Twitter handle is required');
    }
    const real = await post(`${h.url}/api/auth/login`, { twitterHandle: 'nobody', password: 'x' }, { 'x-forwarded-for': '203.0.113.77' });
    expect(real.status).toBe(401);
    await real.arrayBuffer();
  });
});
