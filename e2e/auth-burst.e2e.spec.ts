// A burst of sign-ups and log-ins through the real gateway and identity (Postgres, NATS, Redis), with
// identity's hashing line made tiny so the burst overflows it at once (ADR 0044): every request is
// answered, each 2xx or the designed 503 with Retry-After and identity's words, and every accepted sign-up
// really made an account that logs in. Only identity and the gateway start: the burst touches nothing else.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { busyText } from '@clipit/field-rules';
import { connectNats } from '@clipit/service-kit';
import {
  createTestDatabase,
  deleteEventStreams,
  deleteKeysWithPrefix,
  dropTestDatabase,
  freePorts,
  isolatedNames,
  isolatedServiceEnv,
  testInfra,
} from '@clipit/testing';
import { Redis } from 'ioredis';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { bootstrapGateway, type GatewayApp } from '../services/gateway/src/app.js';
import { bootstrapIdentity, identityService, type IdentityApp } from '../services/identity/src/app.js';
import { json } from './support/http.js';
import { asOurPage, WEB_BUILDS } from './support/platform.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const PASSWORD = 'a-good-password';
const ACCOUNTS = 30;
const SIGNUPS = 60;
/** Identity, as the bench's production is not: one hash at a time, ~10 ms each (cost 12), 100 ms budget (50 for sign-ups). */
const TINY_POOL = { PASSWORD_HASH_COST: 12, PASSWORD_HASH_CONCURRENCY: 1, PASSWORD_HASH_BUDGET_MS: 100 } as const;

interface Answer {
  kind: 'signup' | 'login';
  handle: string;
  status: number;
  type: string | null;
  retryAfter: string | null;
  cookie: string | null;
  text: string;
}

describe('a burst of sign-ups and log-ins over a tiny hashing line (gateway + identity, real servers)', () => {
  const names = isolatedNames('e2e');
  let storageRoot = '';
  let identity: IdentityApp | undefined;
  let gateway: GatewayApp | undefined;
  let db: pg.Client | undefined;
  const tag = Date.now().toString(36).slice(-5);

  beforeAll(async () => {
    storageRoot = await mkdtemp(join(tmpdir(), 'clipit-e2e-burst-'));
    const databaseUrl = await createTestDatabase(names.database, identityService);
    const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
    const backend = { ...isolatedServiceEnv(names, storageRoot), LOG_LEVEL: 'warn' } as const;
    identity = await bootstrapIdentity({
      IDENTITY_DATABASE_URL: databaseUrl,
      IDENTITY_GRPC_PORT: grpcPort,
      IDENTITY_HTTP_PORT: httpPort,
      IDENTITY_BIND_HOST: '127.0.0.1',
      MAIL_OUTBOX_DIR: join(storageRoot, 'mail'),
      ...TINY_POOL,
      ...backend,
    });
    gateway = await bootstrapGateway({
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: 0,
      IDENTITY_GRPC_URL: `127.0.0.1:${grpcPort}`,
      RATE_LIMIT_MAX_PER_IP: 100_000,
      RATE_LIMIT_MAX_PER_HANDLE: 100_000,
      ...WEB_BUILDS,
      ...backend,
    });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await gateway?.close();
    await identity?.close();
    await db?.end();
    await dropTestDatabase(names.database);
    const nc = await connectNats(testInfra().natsUrl, 'e2e-cleanup');
    await deleteEventStreams(nc, names.stream);
    await nc.close();
    const redis = new Redis(testInfra().redisUrl);
    await deleteKeysWithPrefix(redis, names.redisKeyPrefix);
    redis.disconnect();
    await rm(storageRoot, { recursive: true, force: true });
  });

  const signupBody = (handle: string) => ({
    email: `${handle}@example.com`,
    twitterHandle: handle,
    walletAddress: WALLET,
    role: 'clipper',
    password: PASSWORD,
  });

  async function send(kind: Answer['kind'], handle: string): Promise<Answer> {
    const [path, body] =
      kind === 'signup' ? ['/api/auth/signup', signupBody(handle)] : ['/api/auth/login', { twitterHandle: handle, password: PASSWORD }];
    const res = await fetch(...asOurPage(gateway!.httpUrl, path, json('POST', body)));
    const headers = res.headers;
    return {
      kind,
      handle,
      status: res.status,
      type: headers.get('content-type'),
      retryAfter: headers.get('retry-after'),
      cookie: headers.get('set-cookie'),
      text: await res.text(),
    };
  }

  /** As the web apps do: sent again after each busy 503's Retry-After, until it is not one. */
  async function sendPatiently(kind: Answer['kind'], handle: string): Promise<Answer> {
    for (;;) {
      const answer = await send(kind, handle);
      if (answer.status !== 503 || answer.retryAfter === null) return answer;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000));
    }
  }

  it('answers every request: 2xx, or 503 with Retry-After and the words; the accepted sign-ups made accounts that log in', async () => {
    // The log-ins' accounts, made one at a time first.
    const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `ba${tag}${i}`);
    for (const handle of accounts) expect((await sendPatiently('signup', handle)).status).toBe(201);

    // Everything at once: new sign-ups and log-ins, interleaved.
    const burst: Array<[Answer['kind'], string]> = [];
    for (let i = 0; i < SIGNUPS; i += 1) {
      burst.push(['signup', `bn${tag}${i}`]);
      if (i < ACCOUNTS) burst.push(['login', accounts[i]!]);
    }
    const answers = await Promise.all(burst.map(([kind, handle]) => send(kind, handle)));

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => ![200, 201, 503].includes(s))).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    const accepted = answers.filter((a) => a.status !== 503);
    // The line did overflow (without it, every one of these would be answered 2xx)…
    expect(refused.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    // …and each refusal says, in text, when to come back: the same seconds as its Retry-After.
    for (const a of refused) {
      expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
      expect({ type: a.type, text: a.text }).toEqual({
        type: 'text/plain; charset=utf-8',
        text: busyText(a.kind === 'signup' ? 'sign-up' : 'log-in', Number(a.retryAfter)),
      });
      expect(a.cookie).toBeNull();
    }
    for (const a of accepted) {
      expect(a.status).toBe(a.kind === 'signup' ? 201 : 200);
      expect(a.cookie).toMatch(/clipit\.sid=/);
    }

    // Exactly the accepted sign-ups made accounts; each logs in (waiting out a busy answer, as the apps do).
    const made = accepted.filter((a) => a.kind === 'signup').map((a) => a.handle);
    const { rows } = await db!.query<{ handle: string }>(`SELECT twitter_username AS handle FROM users WHERE twitter_username LIKE $1`, [
      `bn${tag}%`,
    ]);
    expect(rows.map((r) => r.handle).sort()).toEqual([...made].sort());
    for (const handle of made) expect((await sendPatiently('login', handle)).status).toBe(200);
  });
});
