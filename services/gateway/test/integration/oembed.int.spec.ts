// GET /api/twitter/oembed over real HTTP and real Redis, against a local stand-in for X's oEmbed
// endpoint (node:http, counting what reaches it): a status link is looked up once and then answered
// from Redis, a missing post is remembered for a shorter time, a slow or failing X gives 502 quickly
// and is not remembered, other links never reach X, nothing of the browser's request is forwarded,
// misses are limited per address, and with Redis down previews are still answered.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  deleteKeysWithPrefix,
  startRedisServer,
  startXOembedStandIn,
  testInfra,
  type PrivateServer,
  type XOembedStandIn,
} from '@clipit/testing';
import { POST_MESSAGES } from '@clipit/field-rules';
import { Redis } from 'ioredis';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const TIMEOUT_MS = 400;
let nextId = 1_862_000_000_000_000_000n;
/** A post id of its own per test, so counts never mix. */
const newId = () => String((nextId += 1n));
const link = (id: string, handle = 'clipit') => `https://x.com/${handle}/status/${id}`;

async function expectText(res: Response, status: number, text: string) {
  expect({ status: res.status, type: res.headers.get('content-type'), body: await res.text() }).toEqual({
    status,
    type: 'text/plain; charset=utf-8',
    body: text,
  });
}

describe('GET /api/twitter/oembed', () => {
  let x: XOembedStandIn;
  let h: GatewayHarness;
  let redis: Redis;
  const ask = (url: string | undefined, headers: Record<string, string> = {}) =>
    fetch(`${h.url}/api/twitter/oembed${url === undefined ? '' : `?url=${encodeURIComponent(url)}`}`, { headers });

  beforeAll(async () => {
    x = await startXOembedStandIn();
    h = await startGateway({ OEMBED_URL: x.url, OEMBED_TIMEOUT_MS: TIMEOUT_MS, OEMBED_LIMIT_PER_IP: 1000 });
    redis = new Redis(testInfra().redisUrl);
  });

  afterAll(async () => {
    const prefix = h?.redisKeyPrefix;
    await h?.stop();
    await x?.close();
    // The run's keys are gone with the gateway (the harness removes its prefix).
    if (prefix) expect(await redis.keys(`${prefix}*`)).toEqual([]);
    redis?.disconnect();
  });

  it('answers X’s embed of a status link, only the documented fields, cacheable by browsers', async () => {
    const id = newId();
    x.set(id, { kind: 'found', authorName: 'CLIP IT', imageUrl: 'https://pbs.twimg.com/media/abc.jpg' });
    const res = await ask(link(id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      url: `https://twitter.com/clipit/status/${id}`,
      author_name: 'CLIP IT',
      author_url: 'https://twitter.com/clipit',
      html: expect.stringContaining('<img src="https://pbs.twimg.com/media/abc.jpg">'),
      width: 550,
      height: null,
      type: 'rich',
      cache_age: 3153600000,
      provider_name: 'Twitter',
      provider_url: 'https://twitter.com',
      version: '1.0',
    });
    const [asked] = x.requests.filter((r) => r.statusId === id);
    expect(asked!.query).toEqual({ url: `https://twitter.com/clipit/status/${id}`, omit_script: '1', dnt: 'true', hide_thread: 'true' });
    expect(asked!.headers['accept']).toBe('application/json');
    expect(asked!.headers['user-agent']).toMatch(/^CLIPIT-gateway\//);
  });

  it('asks X once per post: the next asks, by any form of the link, come from Redis', async () => {
    const id = newId();
    expect((await ask(link(id))).status).toBe(200);
    const again = await ask(`https://twitter.com/Someone_Else/status/${id}?s=20`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { url: string }).url).toBe(`https://twitter.com/clipit/status/${id}`);
    expect((await ask(`https://mobile.x.com/clipit/status/${id}`)).status).toBe(200);
    expect(x.hitsFor(id)).toBe(1);
    const key = `${h.redisKeyPrefix}oembed:${id}`;
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(86_000);
    expect(ttl).toBeLessThanOrEqual(86_400);
    // The browser's copy expires with the cached one.
    const cacheControl = (await ask(link(id))).headers.get('cache-control') ?? '';
    expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeLessThanOrEqual(86_400);
  });

  it('shares one request to X among concurrent misses for a post', async () => {
    const id = newId();
    x.set(id, { kind: 'found', delayMs: 150 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(link(id))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(x.hitsFor(id)).toBe(1);
  });

  it.each([
    ['deleted (404)', 'not-found'],
    ['protected (403)', 'forbidden'],
  ] as const)('answers 404 for a post X says is %s, and remembers it for a shorter time', async (_, kind) => {
    const id = newId();
    x.set(id, { kind });
    await expectText(await ask(link(id)), 404, 'Post not found');
    await expectText(await ask(link(id)), 404, 'Post not found');
    expect(x.hitsFor(id)).toBe(1);
    const ttl = await redis.ttl(`${h.redisKeyPrefix}oembed:${id}`);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it('answers 502 soon after the timeout when X does not answer, and asks again next time', async () => {
    const id = newId();
    x.set(id, { kind: 'hang' });
    const t0 = Date.now();
    const res = await ask(link(id));
    const took = Date.now() - t0;
    await expectText(res, 502, 'Could not load the post preview');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(TIMEOUT_MS + 1500);
    expect(await redis.exists(`${h.redisKeyPrefix}oembed:${id}`)).toBe(0);
    x.set(id, { kind: 'found' });
    expect((await ask(link(id))).status).toBe(200);
    expect(x.hitsFor(id)).toBe(2);
  });

  it.each([
    ['a 5xx', { kind: 'error', status: 503 }],
    ['a 200 that is not JSON', { kind: 'garbage' }],
  ] as const)('answers 502 for %s from X, not cached', async (_, behaviour) => {
    const id = newId();
    x.set(id, behaviour);
    await expectText(await ask(link(id)), 502, 'Could not load the post preview');
    await expectText(await ask(link(id)), 502, 'Could not load the post preview');
    expect(x.hitsFor(id)).toBe(2);
  });

  it('refuses a missing url and anything but an X status link, without asking X', async () => {
    const before = x.counters.requests;
    await expectText(await ask(undefined), 400, 'A post URL is required: ?url=https://x.com/{handle}/status/{id}');
    await expectText(await ask(''), 400, 'A post URL is required: ?url=https://x.com/{handle}/status/{id}');
    for (const url of [
      'https://x.com/clipit',
      'https://evil.example/clipit/status/1',
      'http://localhost/a/status/1',
      'https://x.com.evil.example/a/status/1',
      'not a link',
    ]) {
      await expectText(await ask(url), 400, POST_MESSAGES.invalidUrl);
    }
    const twice = await fetch(`${h.url}/api/twitter/oembed?url=${encodeURIComponent(link('1'))}&url=${encodeURIComponent(link('2'))}`);
    await expectText(twice, 400, POST_MESSAGES.invalidUrl);
    expect(x.counters.requests).toBe(before);
  });

  it('never forwards the browser’s cookies or headers to X', async () => {
    const id = newId();
    const res = await ask(link(id), {
      cookie: 'clipit.sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; theme=dark',
      authorization: 'Bearer secret',
      'x-forwarded-for': '203.0.113.9',
      referer: 'https://clipit.example/leaderboard',
      'user-agent': 'Mozilla/5.0 the visitor',
    });
    expect(res.status).toBe(200);
    const [asked] = x.requests.filter((r) => r.statusId === id);
    expect(
      Object.keys(asked!.headers).filter((name) => ['cookie', 'authorization', 'x-forwarded-for', 'referer', 'origin'].includes(name)),
    ).toEqual([]);
    expect(asked!.headers['user-agent']).toMatch(/^CLIPIT-gateway\//);
    expect(x.counters.withCookie).toBe(0);
  });
});

describe('GET /api/twitter/oembed per address', () => {
  it('limits the lookups that reach X (429 with Retry-After), not the cached answers', async () => {
    const x = await startXOembedStandIn();
    const h = await startGateway({ OEMBED_URL: x.url, OEMBED_LIMIT_PER_IP: 2, OEMBED_LIMIT_WINDOW_SECONDS: 60 });
    try {
      const ask = (id: string) => fetch(`${h.url}/api/twitter/oembed?url=${encodeURIComponent(link(id))}`);
      const [a, b, c] = [newId(), newId(), newId()];
      expect((await ask(a)).status).toBe(200);
      expect((await ask(b)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await ask(a)).status).toBe(200);
      const refused = await ask(c);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.text()).toMatch(/^Too many post previews asked for from your network\. Try again in \d+ (second|minute)s?\.$/);
      expect(x.hitsFor(c)).toBe(0);
    } finally {
      await h.stop();
      await x.close();
    }
  });
});

describe('GET /api/twitter/oembed while Redis is down', () => {
  let server: PrivateServer;

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('still answers, asking X each time, and caches again once Redis is back', async () => {
    const x = await startXOembedStandIn();
    const h = await startGateway({ REDIS_URL: server.url, OEMBED_URL: x.url });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const check = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 100 });
    check.on('error', () => undefined);
    try {
      const id = newId();
      const ask = () => fetch(`${h.url}/api/twitter/oembed?url=${encodeURIComponent(link(id))}`);
      await server.process.kill();
      for (let i = 0; i < 2; i++) {
        const t0 = Date.now();
        expect((await ask()).status).toBe(200);
        expect(Date.now() - t0).toBeLessThan(2000);
      }
      expect(x.hitsFor(id)).toBe(2);

      await server.process.start();
      await check.connect();
      const deadline = Date.now() + 10_000;
      while ((await check.exists(`${h.redisKeyPrefix}oembed:${id}`)) === 0) {
        if (Date.now() > deadline) throw new Error('the preview was not cached once Redis came back');
        expect((await ask()).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const hits = x.hitsFor(id);
      expect((await ask()).status).toBe(200);
      expect(x.hitsFor(id)).toBe(hits);
    } finally {
      await deleteKeysWithPrefix(check, h.redisKeyPrefix).catch(() => 0);
      check.disconnect();
      warn.mockRestore();
      await h.stop();
      await x.close();
    }
  });
});
