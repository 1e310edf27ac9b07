// Sign-in through a Redis outage (ADR 0018): the attempt limiter falls back to counters of its own
// process when Redis does not answer, so login keeps answering (and still refuses past the limit), and
// it counts in Redis again once Redis is back. Redis is a private server of the test's, killed for real.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startRedisServer, type PrivateServer } from '@clipit/testing';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { RateLimiter } from '@clipit/service-kit';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function until(what: string, condition: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('attempt limits while Redis is down', () => {
  let server: PrivateServer;

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('the gateway keeps answering login (200, then 429 past the limit) and goes back to Redis when it returns', async () => {
    const h: GatewayHarness = await startGateway({ REDIS_URL: server.url, RATE_LIMIT_MAX_PER_HANDLE: 3, RATE_LIMIT_MAX_PER_IP: 1000 });
    // Nothing of the outage may reach the console raw (ioredis' "Unhandled error event", a client's stack).
    const raw: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      jest
        .spyOn(console, method)
        .mockImplementation((...args: unknown[]) => void raw.push(`console.${method}: ${args.map(String).join(' ')}`)),
    );
    const check = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 100 });
    check.on('error', () => undefined);
    try {
      const login = (handle: string, password: string) => fetch(`${h.url}/api/auth/login`, json({ twitterHandle: handle, password }));
      const up = await fetch(
        `${h.url}/api/auth/signup`,
        json({
          email: 'outage@example.com',
          twitterHandle: 'outage_user',
          walletAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
          role: 'clipper',
          password: 'password123',
        }),
      );
      expect(up.status).toBe(201);
      expect((await login('outage_user', 'password123')).status).toBe(200);

      await server.process.kill();
      // A valid password still signs in: the limiter counts in the gateway's own memory.
      const t0 = Date.now();
      expect((await login('outage_user', 'password123')).status).toBe(200);
      expect(Date.now() - t0).toBeLessThan(2000);
      // The limit still holds per handle (3): this was the 1st local attempt, two more pass, then 429.
      expect((await login('outage_user', 'wrong-password')).status).toBe(401);
      expect((await login('Outage_User', 'password123')).status).toBe(200);
      const refused = await login('outage_user', 'password123');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another account is not affected.
      expect((await login('someone_else', 'password123')).status).toBe(401);

      await server.process.start();
      await check.connect();
      // Back on Redis: attempts are counted in Redis again (a handle never tried before shows it).
      const key = `${h.redisKeyPrefix}rl:login:handle:back_again`;
      await until('login counted in Redis again', async () => {
        const res = await login('back_again', 'password123');
        return res.status === 401 && Number(await check.get(key)) > 0;
      });
    } finally {
      check.disconnect();
      await h.stop();
      for (const spy of spies) spy.mockRestore();
    }
    expect(raw).toEqual([]);
  });

  it('says once that it counts locally and once that Redis is back, not per attempt', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    redis.on('error', () => undefined);
    const limiter = new RateLimiter(redis, { keyPrefix: 'clipit:outage-log:', windowSeconds: 60, maxPerIp: 2, maxPerHandle: 100 }, log);
    try {
      await until('connected', () => redis.status === 'ready');
      expect((await limiter.hit('login', '198.51.100.1')).allowed).toBe(true);

      await server.process.kill();
      const verdicts = [];
      for (let i = 0; i < 4; i++) verdicts.push((await limiter.hit('login', '198.51.100.1')).allowed);
      expect(verdicts).toEqual([true, true, false, false]);
      expect(limiter.countingLocally).toBe(true);

      await server.process.start();
      await until('Redis again', async () => (await limiter.hit('login', '198.51.100.2')).allowed && !limiter.countingLocally);
      // No attempt made while it reconnected waited in the connection's queue to count in Redis later:
      // only the attempt that found it ready is there (else this address could be refused for a window).
      expect(Number(await redis.get(limiter.key('login', 'ip', '198.51.100.2')))).toBe(1);
      const messages = lines.map((l) => `${String(l['level'])} ${String(l['msg'])}`);
      expect(messages).toEqual([
        '40 rate limits: Redis does not answer; counting attempts in this process until it does (limits hold per gateway replica)',
        '30 rate limits: Redis answers again; counting attempts in Redis',
      ]);
    } finally {
      redis.disconnect();
    }
  });

  it('counts locally when Redis is connected but does not answer in time', async () => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const limiter = new RateLimiter(redis, {
      keyPrefix: 'clipit:outage-pause:',
      windowSeconds: 60,
      maxPerIp: 1,
      maxPerHandle: 100,
      redisTimeoutMs: 200,
    });
    try {
      await until('connected', () => redis.status === 'ready');
      server.process.pause();
      const t0 = Date.now();
      expect((await limiter.hit('login', '198.51.100.3')).allowed).toBe(true);
      expect((await limiter.hit('login', '198.51.100.3')).allowed).toBe(false);
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      server.process.resume();
      redis.disconnect();
    }
  });
});
