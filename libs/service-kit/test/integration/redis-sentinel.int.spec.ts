// Redis behind Sentinel (ADR 0054 §7), on servers of this test's own: a master, its replica and three
// sentinels. Clients built from redisConnectionOptions (a BullMQ producer as every service opens one, the
// gateway's Redis resource under the rate limiter) find the master through the sentinels; the master is
// SIGKILLed, and both work again against the promoted replica within 5 s.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createJobQueue } from '@clipit/media-queue';
import { freePorts, ManagedProcess, waitFor } from '@clipit/testing';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { RateLimiter } from '../../src/rate-limit/rate-limiter.js';
import { redisResource } from '../../src/service/redis.js';
import { redisConnectionOptions, type RedisConnectionConfig } from '../../src/service/redis-connection.js';

const MASTER_NAME = 'clipit-test';
const PREFIX = `clipit:sentinel-${randomBytes(4).toString('hex')}:`;
const QUEUE = 'sentinel-check';
// Every client gives up on a server after this long, so a check never hangs on the killed master.
// One try per question (a dead server refuses at once), with time for an answer on a starved machine: at 500 ms a
// slow answer read as none, and a key that was there as missing.
const quick = { lazyConnect: true, connectTimeout: 2000, commandTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One command on a client of its own; undefined when the server does not answer. */
async function ask(port: number, ...command: string[]): Promise<unknown> {
  const client = new Redis({ port, host: '127.0.0.1', ...quick });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.call(command[0]!, ...command.slice(1));
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** A flat RESP map (`SENTINEL MASTER`'s answer) as an object. */
function fields(reply: unknown): Record<string, string> {
  const list = Array.isArray(reply) ? (reply as string[]) : [];
  return Object.fromEntries(list.flatMap((value, i) => (i % 2 === 0 ? [[value, String(list[i + 1])]] : [])));
}

describe('Redis behind Sentinel: a failover (real redis-server and sentinels)', () => {
  const dirs: string[] = [];
  const processes: ManagedProcess[] = [];
  let master: ManagedProcess;
  let masterPort: number;
  let replicaPort: number;
  let sentinelPorts: number[];
  let config: RedisConnectionConfig;
  let queue: Queue | undefined;
  let redis: Redis | undefined;

  function tempDir(label: string): string {
    const dir = mkdtempSync(join(tmpdir(), `clipit-sentinel-${label}-`));
    dirs.push(dir);
    return dir;
  }

  async function start(name: string, args: string[], port: number): Promise<ManagedProcess> {
    const proc = new ManagedProcess({
      name,
      command: 'redis-server',
      args,
      ready: async () => (await ask(port, 'PING')) === 'PONG',
      readyTimeoutMs: 10_000,
      stopGraceMs: 2000,
    });
    processes.push(proc);
    await proc.start();
    return proc;
  }

  const server = (port: number, dir: string, ...more: string[]) => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--maxmemory-policy',
    'noeviction',
    // A replica's first sync starts at once, not after the 5 s Redis waits for other replicas to share it.
    '--repl-diskless-sync-delay',
    '0',
    ...more,
  ];

  beforeAll(async () => {
    [masterPort, replicaPort, ...sentinelPorts] = (await freePorts(5)) as [number, number, ...number[]];
    master = await start('redis master', server(masterPort, tempDir('master')), masterPort);
    await start('redis replica', server(replicaPort, tempDir('replica'), '--replicaof', '127.0.0.1', String(masterPort)), replicaPort);
    await waitFor(
      async () => (/master_link_status:up/.test(String(await ask(replicaPort, 'INFO', 'replication'))) ? true : undefined),
      5000,
      'the replica in sync with the master',
    );

    // Each sentinel rewrites its own file. They start knowing one another and the replica (as they would
    // after a first hello round), so the test does not wait the 2 s of Sentinel's discovery.
    const ids = sentinelPorts.map(() => randomBytes(20).toString('hex'));
    await Promise.all(
      sentinelPorts.map((port, i) => {
        const dir = tempDir(`sentinel-${i}`);
        const file = join(dir, 'sentinel.conf');
        const lines = [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel myid ${ids[i]}`,
          `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
          `sentinel down-after-milliseconds ${MASTER_NAME} 500`,
          `sentinel failover-timeout ${MASTER_NAME} 2000`,
          `sentinel known-replica ${MASTER_NAME} 127.0.0.1 ${replicaPort}`,
          ...sentinelPorts.flatMap((other, j) => (j === i ? [] : [`sentinel known-sentinel ${MASTER_NAME} 127.0.0.1 ${other} ${ids[j]}`])),
        ];
        writeFileSync(file, `${lines.join('\n')}\n`);
        return start(`sentinel ${i}`, [file, '--sentinel'], port);
      }),
    );
    await waitFor(
      async () => {
        const views = await Promise.all(sentinelPorts.map(async (port) => fields(await ask(port, 'SENTINEL', 'MASTER', MASTER_NAME))));
        return views.every((v) => v['num-slaves'] === '1' && v['num-other-sentinels'] === '2' && v['flags'] === 'master')
          ? true
          : undefined;
      },
      5000,
      'every sentinel watching the master, its replica and the two other sentinels',
    );

    // REDIS_URL's host is a dead port: only the sentinels can lead the clients to Redis.
    config = {
      REDIS_URL: 'redis://127.0.0.1:1/0',
      REDIS_SENTINELS: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_MASTER: MASTER_NAME,
    };
  });

  afterAll(async () => {
    await queue?.close().catch(() => undefined);
    redis?.disconnect();
    await Promise.all(processes.map((p) => p.kill()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('sends a BullMQ add and a rate-limit count to the promoted replica within 5 s of the master dying', async () => {
    queue = createJobQueue({ queue: QUEUE, connection: redisConnectionOptions(config), prefix: PREFIX });
    await queue.waitUntilReady();
    // The gateway's own Redis resource, as its app.ts declares it.
    const resource = redisResource<RedisConnectionConfig>(Symbol('redis'), {
      connectTimeout: 2000,
      commandTimeout: 2000,
      enableAutoPipelining: true,
      tolerateOutage: true,
    });
    const logger = pino({ level: 'silent' });
    redis = (await resource.open({ config, logger, get: () => undefined as never })) as Redis;
    const limiter = new RateLimiter(redis, { keyPrefix: PREFIX, windowSeconds: 60, maxPerIp: 100, maxPerHandle: 100 }, logger);
    const ip = '203.0.113.9';
    const counter = limiter.key('login', 'ip', ip);

    await queue.add('before', {}, { jobId: 'before' });
    for (let i = 0; i < 3; i++) await limiter.hit('login', ip);
    expect(await ask(masterPort, 'GET', counter)).toBe('3');
    expect(await ask(masterPort, 'EXISTS', `${PREFIX}bull:${QUEUE}:before`)).toBe(1);
    // Both are on the replica before the master dies (a failover loses only what was not replicated yet).
    await waitFor(
      async () =>
        (await ask(replicaPort, 'GET', counter)) === '3' && (await ask(replicaPort, 'EXISTS', `${PREFIX}bull:${QUEUE}:before`)) === 1
          ? true
          : undefined,
      2000,
      'the writes replicated',
    );

    await master.kill();
    const killedAt = Date.now();
    // Milliseconds from the kill to the first success; Infinity when none came within 8 s.
    const retry = async (attempt: () => Promise<boolean>): Promise<number> => {
      while (Date.now() - killedAt < 8000) {
        if (await attempt().catch(() => false)) return Date.now() - killedAt;
        await sleep(50);
      }
      return Number.POSITIVE_INFINITY;
    };
    const [addMs, countMs] = await Promise.all([
      retry(async () => Boolean(await queue!.add('after', {}, { jobId: 'after' }))),
      // The limiter answers all along (it counts in this process meanwhile): done once a count is Redis's again.
      retry(async () => {
        await limiter.hit('login', ip);
        return !limiter.countingLocally;
      }),
    ]);

    expect(addMs).toBeLessThanOrEqual(5000);
    expect(countMs).toBeLessThanOrEqual(5000);
    // The sentinels name the replica as the master now, and both writes are there, with what came before.
    expect(await ask(sentinelPorts[0]!, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)).toEqual(['127.0.0.1', String(replicaPort)]);
    expect(await ask(replicaPort, 'EXISTS', `${PREFIX}bull:${QUEUE}:before`, `${PREFIX}bull:${QUEUE}:after`)).toBe(2);
    expect(Number(await ask(replicaPort, 'GET', counter))).toBeGreaterThan(3);
  });
});
