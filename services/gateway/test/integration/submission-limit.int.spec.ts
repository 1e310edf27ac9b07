// The submission limit (issue 10 §4) through the real gateway on the real Redis: two replicas on one
// key prefix share the counts, the N+1th creation answers 429 with Retry-After and a text, a refusal
// by the service costs nothing, and another account (or address) is not affected. Identity and
// submissions are in-memory gRPC servers speaking the real protos.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { submissionsContract } from '@clipit/contracts';
import { grpcError, startFakeGrpcServer, testInfra, type FakeGrpcServer } from '@clipit/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const PER_USER = 3;
const PER_IP = 5;

/** submissions' CreateSubmission from memory: a post whose URL says `dup` is refused as already submitted. */
function startFakeSubmissions(): Promise<FakeGrpcServer> {
  return startFakeGrpcServer(submissionsContract, {
    CreateSubmission: (r) => {
      if (String(r['url']).includes('dup')) throw grpcError(status.ALREADY_EXISTS, 'This post has already been submitted');
      const now = new Date().toISOString();
      return {
        id: randomUUID(),
        userId: r['userId'],
        name: r['name'],
        url: r['url'],
        platform: 'twitter',
        externalId: r['externalId'] ?? '',
        authorHandle: r['authorHandle'] ?? '',
        walletAddress: 'pending',
        status: 'pending',
        videoState: 'none',
        createdAt: now,
        updatedAt: now,
      };
    },
  });
}

/** Seconds from now to the next 00:00 UTC. */
const secondsToMidnight = () => (Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 - Date.now()) / 1000;

describe('submission limit (two gateway replicas, real Redis)', () => {
  let submissions: FakeGrpcServer;
  let a: GatewayHarness;
  let b: GatewayHarness;
  let seq = 0;

  beforeAll(async () => {
    submissions = await startFakeSubmissions();
    const limits = {
      SUBMISSIONS_GRPC_URL: submissions.url,
      SUBMISSION_LIMIT_PER_USER: PER_USER,
      SUBMISSION_LIMIT_PER_IP: PER_IP,
      TRUST_PROXY: 'true',
    } as const;
    a = await startGateway(limits);
    // The second replica: same identity (so a session works on both), same Redis and key prefix.
    b = await startGateway({ ...limits, IDENTITY_GRPC_URL: a.identity.url, REDIS_KEY_PREFIX: a.redisKeyPrefix });
  });

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await submissions?.stop();
  });

  /** A new account's session cookie. */
  async function signUp(): Promise<string> {
    const res = await fetch(`${a.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a.url },
      body: JSON.stringify({
        email: `lim${++seq}@example.com`,
        twitterHandle: `lim${seq}_${randomUUID().slice(0, 6)}`,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'password123',
      }),
    });
    expect({ status: res.status, text: await res.text() }).toMatchObject({ status: 201 });
    const sid = /clipit\.sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (!sid) throw new Error('sign-up set no session cookie');
    return `clipit.sid=${sid}`;
  }

  /** POST /api/submissions on one replica, as one account, from one client address. */
  async function submit(on: GatewayHarness, cookie: string, ip: string, url = `https://x.com/clipper/status/${Date.now()}${++seq}`) {
    const res = await fetch(`${on.url}/api/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: on.url, cookie, 'x-forwarded-for': ip },
      body: JSON.stringify({ name: 'A clip', url }),
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      text: await res.text(),
    };
  }

  const creations = () => submissions.calls.filter((c) => c.method === 'CreateSubmission').length;

  it(`answers the ${PER_USER + 1}th creation of one account 429 with Retry-After and a text, on either replica`, async () => {
    const alice = await signUp();
    const ip = '198.51.100.1';
    const before = creations();
    expect((await submit(a, alice, ip)).status).toBe(201);
    // Refused by the service: nothing reached the moderation queue, so it does not count.
    expect(await submit(b, alice, ip, 'https://x.com/clipper/status/1dup')).toMatchObject({
      status: 409,
      text: 'This post has already been submitted',
    });
    expect((await submit(b, alice, ip)).status).toBe(201);
    expect((await submit(a, alice, ip)).status).toBe(201);

    const refused = await submit(a, alice, ip);
    expect(refused).toMatchObject({ status: 429, type: 'text/plain; charset=utf-8' });
    expect(refused.text).toMatch(
      new RegExp(
        `^You have reached today's limit of ${PER_USER} submissions\\. Try again in \\d+ (hours?|minutes?|seconds?), after 00:00 UTC\\.$`,
      ),
    );
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(Math.floor(secondsToMidnight()) - 5);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(Math.ceil(secondsToMidnight()) + 1);

    // The other replica sees the same count, from another address too; refused attempts never reach the service.
    expect((await submit(b, alice, '198.51.100.99')).status).toBe(429);
    expect(creations() - before).toBe(PER_USER + 1);
  });

  it('leaves another account alone', async () => {
    const bob = await signUp();
    expect((await submit(b, bob, '198.51.100.2')).status).toBe(201);
    expect((await submit(a, bob, '198.51.100.2')).status).toBe(201);
  });

  it(`limits one address to ${PER_IP} a day across accounts and replicas, and leaves other addresses alone`, async () => {
    const ip = '198.51.100.3';
    const [carol, dave, erin] = [await signUp(), await signUp(), await signUp()];
    const statuses = [];
    for (const [on, who] of [
      [a, carol],
      [b, carol],
      [a, carol],
      [b, dave],
      [a, dave],
    ] as const)
      statuses.push((await submit(on, who, ip)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const refused = await submit(b, erin, ip);
    expect(refused).toMatchObject({ status: 429 });
    expect(refused.text).toMatch(
      new RegExp(`^Too many submissions from your network today \\(at most ${PER_IP} a day\\)\\. Try again in `),
    );
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // The refusal cost erin nothing: from another address she still has her whole day.
    for (let i = 0; i < PER_USER; i++) expect((await submit(a, erin, '198.51.100.4')).status).toBe(201);
  });

  it('lets submissions through on a replica whose Redis is away (fails open), where sign-in is limited by the replica itself', async () => {
    const frank = await signUp();
    const c = await startGateway({
      SUBMISSIONS_GRPC_URL: submissions.url,
      SUBMISSION_LIMIT_PER_USER: 1,
      IDENTITY_GRPC_URL: a.identity.url,
      // Nothing listens there.
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    try {
      for (let i = 0; i < 3; i++) expect((await submit(c, frank, '198.51.100.5')).status).toBe(201);
      const login = await fetch(`${c.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: c.url },
        body: JSON.stringify({ twitterHandle: 'nobody', password: 'password123' }),
      });
      // Sign-in still reaches identity: its limits count in this replica while Redis is away (ADR 0018).
      expect({ status: login.status, text: await login.text() }).toEqual({ status: 401, text: 'Invalid Twitter handle or password' });
    } finally {
      await c.stop();
    }
  });

  it('keeps its counters under <REDIS_KEY_PREFIX>rl:submissions:, expiring after the UTC day', async () => {
    const redis = new Redis(testInfra().redisUrl);
    try {
      const day = new Date().toISOString().slice(0, 10);
      const keys = await redis.keys(`${a.redisKeyPrefix}rl:submissions:*`);
      expect(keys).toContain(`${a.redisKeyPrefix}rl:submissions:ip:198.51.100.3:${day}`);
      expect(keys.filter((k) => k.includes(':user:'))).not.toHaveLength(0);
      expect(await redis.get(`${a.redisKeyPrefix}rl:submissions:ip:198.51.100.3:${day}`)).toBe(String(PER_IP));
      const ttl = await redis.pttl(`${a.redisKeyPrefix}rl:submissions:ip:198.51.100.3:${day}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(secondsToMidnight() * 1000 + 61_000);
    } finally {
      redis.disconnect();
    }
  });
});
