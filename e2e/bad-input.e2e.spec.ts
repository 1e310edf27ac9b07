// Every operation of the API document the running gateway serves, walked with a fixed corpus of bad
// input (e2e/support/bad-input.ts), signed out and signed in, against the real platform. A route joins
// by being in the document. Whatever the input: no 5xx, every non-OK answer a non-empty text/plain
// message, an answer within the timeout, no cookie-bearing write without Origin/Referer, and the
// platform still answers normally afterwards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import {
  corpusFor,
  CROSS_SITE_REFUSED,
  isWrite,
  KNOWN,
  operationsOf,
  pool,
  sample,
  send,
  userIdParamOf,
  type Answer,
  type BadRequest,
  type Operation,
} from './support/bad-input.js';
import { E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';

const CONCURRENCY = 16;
const TIMEOUT_MS = 15_000;
const USER = {
  email: 'bad.input.user@example.com',
  twitterHandle: 'bi_user',
  password: 'a-good-password',
  walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  role: 'clipper',
};

/** Operations the walk leaves out, each with its reason (printed); none today. */
const SKIPPED: Record<string, string> = {};

type Auth = 'signed out' | 'signed in' | 'as admin' | 'with an API key';

describe('bad input on every operation of the API document (gateway + identity + submissions)', () => {
  let p: Platform;
  let base: URL;
  let agent: http.Agent;
  let operations: Operation[];
  let requests = 0;
  const failures: string[] = [];
  let noOriginSummary = 'the cookie-bearing writes without Origin did not run';
  let noOriginFindings: string[] = [];
  let adminToken = '';
  let apiKey = '';
  let userId = '';
  let apiDocument: Record<string, unknown> = {};

  const call = async (r: { method: string; path: string; headers?: Record<string, string>; body?: Buffer }): Promise<Answer> => {
    requests += 1;
    return send(base, agent, { headers: {}, ...r }, TIMEOUT_MS);
  };
  const jsonCall = (method: string, path: string, body: unknown, cookie?: string) =>
    call({
      method,
      path,
      headers: { 'content-type': 'application/json', origin: p.url, ...(cookie ? { cookie } : {}) },
      body: Buffer.from(JSON.stringify(body)),
    });

  async function signIn(): Promise<string> {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const body = JSON.stringify({ twitterHandle: USER.twitterHandle, password: USER.password });
      const r = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: 'POST',
          path: '/api/auth/login',
          agent,
          headers: { 'content-type': 'application/json', origin: p.url, 'content-length': Buffer.byteLength(body) },
        },
        resolve,
      );
      r.on('error', reject);
      r.end(body);
    });
    requests += 1;
    res.resume();
    const sid = /clipit\.sid=([^;]*)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];
    if (res.statusCode !== 200 || !sid) throw new Error(`sign-in answered ${res.statusCode}`);
    return `clipit.sid=${sid}`;
  }

  /** Checks one answer against the rules every answer follows, and the request's own expectation. */
  function check(auth: Auth, r: BadRequest, a: Answer | Error): void {
    const where = `${auth} ${r.method} ${r.op.template} [${r.label}]`;
    if (a instanceof Error) return void failures.push(`${where}: no answer (${a.message})`);
    const problems: string[] = [];
    if (a.status >= 500) problems.push(`${a.status}`);
    if (a.status >= 400) {
      if (!a.contentType.startsWith('text/plain')) problems.push(`${a.status} as ${a.contentType || 'no content type'}`);
      if (a.text.trim() === '') problems.push(`${a.status} with an empty message`);
    }
    if (r.expect && (a.status !== r.expect.status || (r.expect.text !== undefined && a.text !== r.expect.text))) {
      problems.push(
        `answered ${a.status} '${a.text.slice(0, 80)}', expected ${r.expect.status}${r.expect.text ? ` '${r.expect.text}'` : ''}`,
      );
    }
    if (problems.length > 0) failures.push(`${where}: ${problems.join(', ')}${a.status >= 500 ? ` '${a.text.slice(0, 80)}'` : ''}`);
  }

  const run = (auth: Auth, batch: BadRequest[]) =>
    pool(batch, CONCURRENCY, async (r) => {
      const answer = await call(r).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      check(auth, r, answer);
      return answer;
    });

  beforeAll(async () => {
    // The sign-in limits would answer 429 to nearly all of the corpus on the auth routes, before their
    // validation runs; the limiter has its own tests. Everything else is as deployed.
    // The same for the versioned read API's per-key limit.
    p = await startPlatform({
      RATE_LIMIT_MAX_PER_IP: 1_000_000,
      RATE_LIMIT_MAX_PER_HANDLE: 1_000_000,
      API_KEY_LIMIT_PER_WINDOW: 1_000_000,
    });
    base = new URL(p.url);
    // A connection per request: a keep-alive socket the server has just closed (after a 413) would fail the next request for nothing.
    agent = new http.Agent({ keepAlive: false, maxSockets: CONCURRENCY });
    const signup = await jsonCall('POST', '/api/auth/signup', USER);
    expect(signup.status).toBe(201);
    userId = (JSON.parse(signup.text) as { user: { id: string } }).user.id;
    // Both documents: the site's and the versioned read API's (ADR 0053), walked as one.
    const [docs, v1Docs] = await Promise.all([call({ method: 'GET', path: '/api/docs' }), call({ method: 'GET', path: '/api/docs/v1' })]);
    expect(docs.status).toBe(200);
    expect(v1Docs.status).toBe(200);
    const site = JSON.parse(docs.text) as Record<string, Record<string, unknown>>;
    const v1 = JSON.parse(v1Docs.text) as Record<string, Record<string, unknown>>;
    apiDocument = {
      ...site,
      paths: { ...site['paths'], ...v1['paths'] },
      components: { ...site['components'], schemas: { ...site['components']!['schemas']!, ...v1['components']!['schemas']! } },
    };
    operations = operationsOf(apiDocument);
    expect(operations.filter((op) => op.apiKey).length).toBeGreaterThan(0);
    // A real submission of the user's, so the routes that take one get past 'Submission not found'.
    const cookie = await signIn();
    const post = await jsonCall(
      'POST',
      '/api/submissions',
      { name: 'A clip', url: 'https://x.com/clipper/status/1700000000000000001', walletAddress: 'pending' },
      cookie,
    );
    expect(post.status).toBe(201);
    KNOWN['submissionId'] = (JSON.parse(post.text) as { id: string }).id;
    // The admin routes are walked a third time with a real admin token, so their own checks run.
    const unlocked = await jsonCall('POST', '/api/admin/verify-password', { password: E2E_ADMIN_PASSWORD });
    expect(unlocked.status).toBe(200);
    adminToken = (JSON.parse(unlocked.text) as { token: string }).token;
    // The v1 routes are walked with a real API key holding every scope, so their own checks run.
    const made = await jsonCall(
      'POST',
      '/api/keys',
      { name: 'bad input', scopes: ['campaigns:read', 'submissions:read', 'leaderboards:read'] },
      cookie,
    );
    expect(made.status).toBe(201);
    apiKey = (JSON.parse(made.text) as { key: string }).key;
  });

  afterAll(async () => {
    agent?.destroy();
    await p?.stop();
  });

  it('refuses every cookie-bearing write without Origin or Referer (403) and changes nothing', async () => {
    const counts = async () => ({
      users: await p.count('SELECT count(*) FROM users'),
      submissions: Number((await p.submissionsDb.query<{ n: string }>('SELECT count(*) AS n FROM submissions')).rows[0]!.n),
    });
    const countsBefore = await counts();
    const writes = operations.filter((op) => isWrite(op) && !op.cookieless && !(op.operationId in SKIPPED));
    const found: string[] = [];
    // One write at a time, each with a session of its own: one let through (a logout) must not hide what another did.
    for (const op of writes) {
      const cookie = await signIn();
      const state = async () => {
        const [me, mine] = await Promise.all([
          call({ method: 'GET', path: '/api/user/me', headers: { cookie } }),
          call({ method: 'GET', path: '/api/submissions', headers: { cookie } }),
        ]);
        return `${me.status} ${me.text} | ${mine.status} ${mine.text}`;
      };
      const before = await state();
      const body = op.jsonBody ? Buffer.from(JSON.stringify(sample(op.jsonBody))) : undefined;
      const path = op.template.replace(/\{\w+\}/g, 'sample-id');
      const r: BadRequest = {
        op,
        label: 'session cookie, no Origin or Referer',
        method: op.method,
        path,
        headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body } : {}),
        expect: { status: 403, text: CROSS_SITE_REFUSED },
      };
      check('signed in', r, await call(r).catch((e: Error) => e));
      const after = await state();
      if (after !== before)
        failures.push(
          `signed in ${op.method} ${op.template} [session cookie, no Origin or Referer]: the user or their submissions changed: ${before.slice(0, 100)} → ${after.slice(0, 100)}`,
        );
    }
    found.push(...failures.splice(0));
    const countsAfter = await counts();
    if (JSON.stringify(countsAfter) !== JSON.stringify(countsBefore))
      found.push(`rows written: ${JSON.stringify(countsBefore)} → ${JSON.stringify(countsAfter)}`);
    noOriginSummary = `${writes.length} cookie-bearing writes without Origin/Referer (${writes.map((o) => `${o.method} ${o.template}`).join(', ')}): ${found.length} findings`;
    noOriginFindings = found;
    expect(found).toEqual([]);
  });

  it('answers every bad input on every operation with a 4xx text or success, never a 5xx, a JSON error or a hang', async () => {
    const skipped = operations.filter((op) => op.operationId in SKIPPED);
    const walked = operations.filter((op) => !(op.operationId in SKIPPED));
    expect(walked.length).toBeGreaterThanOrEqual(15);
    const started = Date.now();
    const before = requests;
    for (const auth of ['signed out', 'signed in'] as const) {
      for (const op of walked) {
        // A fresh session per operation: the logout routes end theirs at the first request that gets through.
        const cookie = auth === 'signed in' ? await signIn() : undefined;
        const batch = corpusFor(op, p.url).map((r): BadRequest => {
          if (!cookie || r.headers['cookie'] !== undefined) return r;
          const bare = isWrite(op) && !op.cookieless && !r.headers['origin'] && !r.headers['referer'];
          // The session cookie without Origin or Referer: a write is refused before anything else is read.
          return { ...r, headers: { ...r.headers, cookie }, ...(bare ? { expect: { status: 403, text: CROSS_SITE_REFUSED } } : {}) };
        });
        await run(auth, batch);
      }
    }
    for (const op of walked.filter((o) => o.bearer)) {
      // The bad value is in the body, the path or the query: the token stays good unless the corpus replaced the header itself.
      const batch = corpusFor(op, p.url).map((r): BadRequest =>
        r.headers['authorization'] !== undefined ? r : { ...r, headers: { ...r.headers, authorization: `Bearer ${adminToken}` } },
      );
      await run('as admin', batch);
    }
    for (const op of walked.filter((o) => o.apiKey)) {
      const batch = corpusFor(op, p.url).map((r): BadRequest =>
        r.headers['authorization'] !== undefined ? r : { ...r, headers: { ...r.headers, authorization: `Bearer ${apiKey}` } },
      );
      await run('with an API key', batch);
    }
    // Sorted: the list reads the same whatever order the concurrent answers came back in.
    const found = failures.splice(0).sort((a, b) => a.localeCompare(b));
    console.log(
      [
        `bad input: ${requests} requests in all; ${noOriginSummary}${noOriginFindings.map((f) => `\n  ${f}`).join('')}`,
        `the corpus: ${requests - before} requests over ${walked.length} operations, signed out and signed in, in ${((Date.now() - started) / 1000).toFixed(1)} s (concurrency ${CONCURRENCY}, timeout ${TIMEOUT_MS} ms)`,
        ...skipped.map((op) => `skipped ${op.method} ${op.template}: ${SKIPPED[op.operationId]}`),
        `walked a third time with an admin token: ${walked.filter((op) => op.bearer).length} admin operations`,
        `walked a third time with an API key: ${walked.filter((op) => op.apiKey).length} operations of the versioned read API`,
        `${found.length} findings${found.length ? ':' : ''}`,
        ...found.slice(0, 200),
      ].join('\n'),
    );
    // The platform runs in this process: a polluted prototype would show here.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(found).toEqual([]);
  }, 240_000); // the walk grows with the API: about 1.3 s per operation on two cores

  it('answers every read that names a user 404 in text for an id that is no user, and 200 for a real one, even one who signed up a moment ago', async () => {
    // Derived from the document: a GET whose path parameter is a user's id (by its name or its description).
    const reads = operations.filter((op) => op.method === 'GET' && userIdParamOf(apiDocument, op) !== undefined);
    expect(reads.map((op) => op.template)).toEqual(expect.arrayContaining(['/api/clipper/stats/{userId}', '/api/followers/{userId}']));
    // A streamer who signs up now and is asked about at once: an owner's read model may not have them yet.
    const streamer = await jsonCall('POST', '/api/auth/signup', {
      ...USER,
      email: 'bad.input.streamer@example.com',
      twitterHandle: 'bi_streamer',
      role: 'streamer',
    });
    expect(streamer.status).toBe(201);
    const real = { clipper: userId, user: userId, streamer: (JSON.parse(streamer.text) as { user: { id: string } }).user.id };
    const cookie = await signIn();
    const found: string[] = [];
    for (const op of reads) {
      const param = userIdParamOf(apiDocument, op)!;
      const at = (id: string) => op.template.replace(`{${param.name}}`, id);
      const headers: Record<string, string> = op.session ? { cookie } : {};
      const [unknown, known] = await Promise.all([
        call({ method: 'GET', path: at(randomUUID()), headers }),
        call({ method: 'GET', path: at(real[param.role]), headers }),
      ]);
      if (unknown.status !== 404 || !unknown.contentType.startsWith('text/plain') || unknown.text.trim() === '')
        found.push(`GET ${op.template} for an id that is no user: ${unknown.status} ${unknown.contentType} '${unknown.text.slice(0, 80)}'`);
      if (known.status !== 200) found.push(`GET ${op.template} for a real ${param.role}: ${known.status} '${known.text.slice(0, 80)}'`);
    }
    console.log(
      `reads naming a user: ${reads.map((op) => op.template).join(', ')}; ${found.length} findings${found.map((f) => `\n  ${f}`).join('')}`,
    );
    expect(found).toEqual([]);
  });

  it('still answers normally afterwards: sign-in, the signed-in user, a public read', async () => {
    const cookie = await signIn();
    const me = await call({ method: 'GET', path: '/api/user/me', headers: { cookie } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.text)).toMatchObject({ twitterUsername: USER.twitterHandle });
    const tokens = await call({ method: 'GET', path: '/api/tokens' });
    expect(tokens.status).toBe(200);
    const mine = await call({ method: 'GET', path: '/api/submissions', headers: { cookie } });
    expect(mine.status).toBe(200);
  });
});
