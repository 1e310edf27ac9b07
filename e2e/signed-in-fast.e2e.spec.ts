// Signed-in reads at the front (ADR 0045) over the real platform: the gateway answers a signed-in feed
// page, /api/user/me and /api/dashboard from its session cache and per-user caches before Fastify, and
// every answer must be the one the route gives without any cache: a second gateway with its read, session
// and dashboard caches off is the reference, asked the same thing at the same moment. Clips reach the
// feed as the events submissions publishes on approval (with a processed video, as the benchmark's seed
// does); likes, submissions and sign-outs go through the real routes.
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayApp } from '../services/gateway/src/app.js';
import { publishFeedClips, signUp as signUpAt, type Account } from './support/accounts.js';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';
const PAGE = '/api/feed/clips?limit=10';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that differ between two answers by nature: the connection's, the date, the correlation id. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'x-correlation-id']);

describe('signed-in reads at the front (gateway + identity + feed + rewards + social + submissions)', () => {
  let p: Platform;
  let reference: GatewayApp;
  let postSeq = 0;
  const clips: string[] = [];
  let alice: Account;
  let bob: Account;
  let carol: Account;

  const get = async (base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(...asOurPage(base, path, { headers }));
    return {
      status: res.status,
      headers: Object.fromEntries([...res.headers].filter(([name]) => !PER_ANSWER.has(name))),
      body: await res.text(),
    };
  };
  const fast = (path: string, headers: Record<string, string> = {}) => get(p.url, path, headers);
  const slow = (path: string, headers: Record<string, string> = {}) => get(reference.httpUrl, path, headers);
  const frontAnswers = async (): Promise<number> => {
    const text = await (await fetch(`${p.url}/metrics`)).text();
    return [...text.matchAll(/^gateway_signed_in_front_answers_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };
  /** Whether `request` was answered at a front (the counter is the process's, shared by its gateways), its body read. */
  const frontAnswersOf = async (request: () => Promise<Response>): Promise<boolean> => {
    const before = await frontAnswers();
    const res = await request();
    await res.text();
    return res.status === 200 && (await frontAnswers()) === before + 1;
  };
  const liked = (answer: Answer) =>
    (JSON.parse(answer.body) as { submissions: Array<{ id: string; likedByCurrentUser: boolean }> }).submissions
      .filter((c) => c.likedByCurrentUser)
      .map((c) => c.id)
      .sort();

  const signUp = () => signUpAt(p.url, { prefix: 'sf' });

  const write = (who: Account, method: string, path: string, body?: unknown) =>
    fetch(
      ...asOurPage(p.url, path, {
        method,
        headers: { cookie: who.cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );

  /** Reads `path` through the front until it is answered there, and answers that answer. */
  async function atFront(path: string, headers: Record<string, string>): Promise<Answer> {
    return waitFor(
      async () => {
        const before = await frontAnswers();
        const answer = await fast(path, headers);
        return (await frontAnswers()) === before + 1 ? answer : undefined;
      },
      5000,
      `${path} answered at the front`,
    );
  }

  /** The same read from the front and from the cacheless reference at one moment (nothing changing meanwhile). */
  async function expectSameAsReference(path: string, cookie: string): Promise<Answer> {
    const front = await atFront(path, { cookie });
    const reference = await slow(path, { cookie });
    expect(front.status).toBe(200);
    expect(front.body).toBe(reference.body);
    expect(front.headers).toEqual(reference.headers);
    expect(front.headers['cache-control']).toBe('private, no-cache');
    return front;
  }

  beforeAll(async () => {
    p = await startPlatform({ RATE_LIMIT_MAX_PER_IP: 1000 });
    reference = await p.startGateway({ PUBLIC_READ_CACHE_TTL_MS: 0, GATEWAY_SESSION_CACHE_TTL_MS: 0, GATEWAY_DASHBOARD_CACHE_TTL_MS: 0 });
    [alice, bob, carol] = [await signUp(), await signUp(), await signUp()];
    // Three of alice's clips approved into the feed, as submissions tells of them.
    clips.push(...(await publishFeedClips(p.names.subjectPrefix, alice, 3, 'Front clip')));
    await waitFor(
      async () => {
        const ids = (JSON.parse((await slow(PAGE)).body) as { submissions: Array<{ id: string }> }).submissions.map((c) => c.id);
        const social = await p.socialDb.query('SELECT count(*)::int AS n FROM clips WHERE id = ANY($1)', [clips]).catch(() => undefined);
        return clips.every((id) => ids.includes(id)) && (social === undefined || social.rows[0]?.['n'] === 3) ? true : undefined;
      },
      15_000,
      'the clips in the feed',
    );
  }, 90_000);
  afterAll(async () => {
    await reference?.close();
    await p?.stop();
  });

  it("lays each reader's own likes over the shared page, the very bytes and headers of the route without caches", async () => {
    expect((await write(bob, 'POST', `/api/feed/clips/${clips[1]}/like`)).status).toBe(200);
    await waitFor(async () => (liked(await slow(PAGE, { cookie: bob.cookie })).length === 1 ? true : undefined), 10_000, "bob's like");

    const bobs = await expectSameAsReference(PAGE, bob.cookie);
    expect(liked(bobs)).toEqual([clips[1]]);
    // Carol liked nothing: the shared page, as her own; never bob's likes.
    const carols = await expectSameAsReference(PAGE, carol.cookie);
    expect(liked(carols)).toEqual([]);
    expect(carols.headers['etag']).not.toBe(bobs.headers['etag']);

    // 304 at the front for the ETag the reader holds, and a full answer for someone else's.
    const before = await frontAnswers();
    const notModified = await fast(PAGE, { cookie: bob.cookie, 'if-none-match': bobs.headers['etag']! });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect((await fast(PAGE, { cookie: carol.cookie, 'if-none-match': bobs.headers['etag']! })).status).toBe(200);
    expect(await frontAnswers()).toBe(before + 2);
  });

  it("shows a new like at the front once the feed has applied it (its notice drops the reader's page)", async () => {
    await atFront(PAGE, { cookie: carol.cookie });
    expect((await write(carol, 'POST', `/api/feed/clips/${clips[2]}/like`)).status).toBe(200);
    const seen = await waitFor(
      async () => {
        const answer = await fast(PAGE, { cookie: carol.cookie });
        return liked(answer).includes(clips[2]!) ? answer : undefined;
      },
      5000,
      "carol's like at the front",
    );
    expect(liked(seen)).toEqual([clips[2]]);
    expect(liked(await expectSameAsReference(PAGE, carol.cookie))).toEqual([clips[2]]);
    expect(liked(await expectSameAsReference(PAGE, bob.cookie))).toEqual([clips[1]]);
  });

  it('answers /api/user/me and /api/auth/user from the cached user, as the route does, with 304', async () => {
    for (const path of ['/api/user/me', '/api/auth/user']) {
      const me = await expectSameAsReference(path, alice.cookie);
      expect(JSON.parse(me.body)).toMatchObject({ id: alice.id, twitterUsername: alice.handle });
      expect((await fast(path, { cookie: alice.cookie, 'if-none-match': me.headers['etag']! })).status).toBe(304);
    }
  });

  it("answers each user's own dashboard, and a changed one once rewards has committed the change", async () => {
    const alices = await expectSameAsReference('/api/dashboard', alice.cookie);
    const bobs = await expectSameAsReference('/api/dashboard', bob.cookie);
    expect(JSON.parse(alices.body).user.id).toBe(alice.id);
    expect(JSON.parse(bobs.body).user.id).toBe(bob.id);
    expect(JSON.parse(alices.body).recentSubmissions).toHaveLength(3);
    expect(JSON.parse(bobs.body).recentSubmissions).toHaveLength(0);

    // A submission of bob's (the real route): rewards applies submission.created, then its notice drops bob's dashboard.
    postSeq += 1;
    const created = await write(bob, 'POST', '/api/submissions', {
      name: 'A new one',
      url: `https://x.com/${bob.handle}/status/${Date.now()}${postSeq}`,
      walletAddress: '',
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    await waitFor(
      async () => {
        const answer = await fast('/api/dashboard', { cookie: bob.cookie });
        return (JSON.parse(answer.body) as { recentSubmissions: Array<{ id: string }> }).recentSubmissions.some((s) => s.id === id)
          ? true
          : undefined;
      },
      5000,
      "bob's new submission on his dashboard",
    );
    expect(JSON.parse((await expectSameAsReference('/api/dashboard', bob.cookie)).body).recentSubmissions).toHaveLength(1);
    // Alice's is untouched and still answered at the front.
    expect((await expectSameAsReference('/api/dashboard', alice.cookie)).body).toBe(alices.body);
  });

  it('never answers a request waiting for its own write from the front or a per-user cache', async () => {
    await atFront(PAGE, { cookie: bob.cookie });
    await atFront('/api/dashboard', { cookie: bob.cookie });
    const before = await frontAnswers();
    const waiting: Array<Record<string, string>> = [{ cookie: `${bob.cookie}; clipit.rw=1` }, { cookie: bob.cookie, 'clipit-after': '1' }];
    for (const headers of waiting) {
      for (const path of [PAGE, '/api/dashboard', '/api/user/me']) {
        const answer = await fast(path, headers);
        expect(answer.status).toBe(200);
        expect(answer.body).toBe((await slow(path, { cookie: bob.cookie })).body);
      }
    }
    expect(await frontAnswers()).toBe(before);
  });

  it('serves the same profile and creators to a signed-in reader as to a visitor, at the front', async () => {
    for (const path of [`/api/clipper/${alice.id}`, '/api/creators/clippers']) {
      const visitor = await fast(path);
      const signedIn = await fast(path, { cookie: bob.cookie });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toBe(visitor.body);
      expect(signedIn.headers['cache-control']).toBe('no-cache');
    }
  });

  it('re-issues the cookie of a session identity renewed while its requests were answered at the front', async () => {
    // A replica whose session cache refreshes within seconds: its entries are resolved again ahead of their end.
    const quick = await p.startGateway({ GATEWAY_SESSION_CACHE_TTL_MS: 2000 });
    try {
      const frank = await signUp();
      const me = () => fetch(...asOurPage(quick.httpUrl, '/api/user/me', { headers: { cookie: frank.cookie } }));
      await waitFor(async () => ((await frontAnswersOf(me)) ? true : undefined), 5000, "frank's session at the front");
      // Past half its life: identity extends the session the next time it resolves it.
      await p.db.query(`UPDATE sessions SET expire = now() + interval '1 day' WHERE sess ->> 'userId' = $1`, [frank.id]);
      const renewed = await waitFor(
        async () => {
          const res = await me();
          expect(res.status).toBe(200);
          await res.text();
          return res.headers.get('set-cookie') ?? undefined;
        },
        10_000,
        'the renewed cookie',
      );
      expect(renewed).toContain(frank.cookie);
      // The session's new lifetime (14 days), not the day it had left.
      expect(Number(/Max-Age=(\d+)/i.exec(renewed)?.[1])).toBeGreaterThan(13 * 86_400);
      // Once: the session's next requests are answered at the front again, without a cookie.
      const next = await waitFor(async () => ((await frontAnswersOf(me)) ? true : undefined), 5000, 'the front again');
      expect(next).toBe(true);
      const after = await me();
      expect(after.headers.get('set-cookie')).toBeNull();
    } finally {
      await quick.close();
    }
  });

  it('serves nothing to a signed-out session or one that expired', async () => {
    const dave = await signUp();
    await atFront('/api/user/me', { cookie: dave.cookie });
    await atFront('/api/dashboard', { cookie: dave.cookie });
    expect((await write(dave, 'POST', '/api/logout')).status).toBe(200);
    for (const path of ['/api/user/me', '/api/dashboard']) expect((await fast(path, { cookie: dave.cookie })).status).toBe(401);
    expect(liked(await fast(PAGE, { cookie: dave.cookie }))).toEqual([]);

    // A session that expired at identity before this replica cached it: refused, never answered at the front.
    const erin = await signUp();
    await p.db.query(`UPDATE sessions SET expire = now() - interval '1 second' WHERE sess ->> 'userId' = $1`, [erin.id]);
    const before = await frontAnswers();
    for (const path of ['/api/user/me', '/api/dashboard', '/api/user/me'])
      expect((await fast(path, { cookie: erin.cookie })).status).toBe(401);
    expect(await frontAnswers()).toBe(before);
  });
});
