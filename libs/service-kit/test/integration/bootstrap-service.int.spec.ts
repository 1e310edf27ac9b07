// The kit's one start-up, driven with a small service of the test's own against the real Postgres and
// NATS: what a definition declares is opened, provided, checked by readiness and closed in order, events
// reach their handler once, and a failure part-way through start-up leaves nothing running.
import { randomUUID } from 'node:crypto';
import { identityContract } from '@clipit/contracts';
import { createTestDatabase, deleteEventStreams, dropTestDatabase, freePorts, isolatedNames, testInfra, waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { z } from 'zod';
import { CreateEventBusTables1763700000000 } from '../../src/bus/bus.migration.js';
import { connectNats, type NatsConnection } from '../../src/bus/jetstream.js';
import { EventPublisher } from '../../src/bus/publisher.js';
import { ConfigError, sharedConfigShape } from '../../src/config/config.js';
import { bootstrapService, defineService, every, resource, type ServiceApp } from '../../src/service/bootstrap.js';
import { grpcClient } from '../../src/service/clients.js';
import { databaseConfigShape, serverConfigShape, type ConfigOf } from '../../src/service/service-config.js';
import { CONFIG, LOGGER, SERVICE_INFO } from '../../src/service/tokens.js';
import { CreateApplied1763700000001 } from '../fixtures/bus-harness.js';

const shape = {
  ...sharedConfigShape,
  ...serverConfigShape('KITTEST', { httpPort: 8199 }),
  ...databaseConfigShape('KITTEST', 'clipit_kittest'),
  UPSTREAM_GRPC_URL: z.string().default('127.0.0.1:1'),
  TICK_MS: z.coerce.number().default(20),
};
type Config = ConfigOf<typeof shape>;

const CLOCK = Symbol('CLOCK');
const FAILING = Symbol('FAILING');
const UPSTREAM = Symbol('UPSTREAM');

/** What happened, in order, across the whole service: opens, closes, handled events, ticks. */
const journal: string[] = [];

@Injectable()
class Verdicts implements OnApplicationShutdown {
  constructor(
    private readonly db: DataSource,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: { now(): number },
    @Inject(LOGGER) private readonly logger: { info(msg: string): void },
  ) {}

  async record(eventId: string, tx: EntityManager): Promise<void> {
    await tx.query('INSERT INTO applied (event_id, consumer) VALUES ($1, $2)', [eventId, 'kittest']);
    journal.push(`handled ${eventId}`);
  }

  describe(): string {
    return `${this.config.KITTEST_HTTP_PORT}@${this.clock.now() > 0 && this.db.isInitialized}`;
  }

  onApplicationShutdown(): void {
    this.logger.info('servers closing');
    journal.push('servers closed');
  }
}

@Module({ providers: [Verdicts] })
class KitTestModule {}

const clock = resource<Config, { now(): number }>('clock', CLOCK, () => ({ now: () => Date.now() }), {
  close: () => journal.push('clock closed'),
  health: () => [{ name: 'clock', check: async () => undefined }],
});

function definition(extra: { failingResource?: boolean; upstream?: 'required' | 'reported' } = {}) {
  return defineService(shape, {
    name: 'kittest',
    version: '1.2.3',
    database: { entities: [], migrations: [CreateEventBusTables1763700000000, CreateApplied1763700000001] },
    resources: [
      clock,
      ...(extra.failingResource
        ? [
            resource<Config, never>('failing', FAILING, () => {
              throw new Error('the object store said no');
            }),
          ]
        : []),
    ],
    clients: extra.upstream
      ? [grpcClient(identityContract, { token: UPSTREAM, url: (c) => c.UPSTREAM_GRPC_URL, readiness: extra.upstream })]
      : [],
    events: ({ get }) => ({ 'media.failed': (event, tx) => get(Verdicts).record(event.id, tx) }),
    workers: [
      every(
        'ticker',
        (c) => c.TICK_MS,
        async () => {
          journal.push('tick');
        },
      ),
      {
        name: 'drainer',
        start: async () => ({
          stop: async () => {
            journal.push('drainer stopped');
          },
        }),
      },
    ],
    module: KitTestModule,
  });
}

describe('bootstrapService', () => {
  const names = isolatedNames('kittest');
  let databaseUrl: string;
  let nc: NatsConnection;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(names.database);
    nc = await connectNats(testInfra().natsUrl, 'kittest-probe');
  });

  afterAll(async () => {
    await deleteEventStreams(nc, names.stream).catch(() => undefined);
    await nc.close();
    await dropTestDatabase(names.database);
  });

  async function start(
    extra: Parameters<typeof definition>[0] = {},
    overrides: Record<string, string | number> = {},
  ): Promise<ServiceApp<Config>> {
    const [httpPort] = (await freePorts(1)) as [number];
    return bootstrapService(definition(extra), {
      KITTEST_DATABASE_URL: databaseUrl,
      KITTEST_HTTP_PORT: httpPort,
      KITTEST_BIND_HOST: '127.0.0.1',
      NATS_URL: testInfra().natsUrl,
      EVENTS_STREAM: names.stream,
      EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
      LOG_LEVEL: 'silent',
      ...overrides,
    });
  }

  it('names a bad variable before opening anything', async () => {
    await expect(start({}, { KITTEST_HTTP_PORT: 'eighty' })).rejects.toThrow(ConfigError);
    await expect(start({}, { KITTEST_HTTP_PORT: 'eighty' })).rejects.toThrow(/KITTEST_HTTP_PORT="eighty" is invalid/);
  });

  it('provides config, logger, database and resources to the module, runs workers, and applies each event once', async () => {
    journal.length = 0;
    const app = await start();
    try {
      expect(app.get(Verdicts).describe()).toBe(`${app.httpPort}@true`);
      const ready = await fetch(`${app.httpUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', nats: 'ok', clock: 'ok' } });
      expect(await (await fetch(`${app.httpUrl}/metrics`)).text()).toContain('service_info{version="1.2.3",service="kittest"} 1');
      expect(app.get(SERVICE_INFO)).toEqual({ name: 'kittest', version: '1.2.3' });

      const publisher = new EventPublisher({ nc, names: { stream: names.stream, subjectPrefix: names.subjectPrefix } });
      const data = { videoId: randomUUID(), submissionId: randomUUID(), code: 'invalid' as const, reason: 'Invalid Video: unreadable' };
      const sent = await publisher.publish('media.failed', data);
      // The same fact published again (a retried publisher) is dropped by the stream or the inbox.
      await publisher.publishEnvelope(sent.envelope);
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        await waitFor(async () => ((await db.query('SELECT count(*)::int AS n FROM applied')).rows[0].n === 1 ? true : undefined), 10_000);
        expect(journal.filter((e) => e.startsWith('handled'))).toEqual([`handled ${sent.envelope.id}`]);
      } finally {
        await db.end();
      }
      await waitFor(() => (journal.includes('tick') ? true : undefined), 5000);
    } finally {
      await app.close();
    }
    // Workers stop first (no new work), then the servers, then what was opened for them.
    const order = journal.filter((e) => ['drainer stopped', 'servers closed', 'clock closed'].includes(e));
    expect(order).toEqual(['drainer stopped', 'servers closed', 'clock closed']);
    const ticks = journal.filter((e) => e === 'tick').length;
    await new Promise((r) => setTimeout(r, 100));
    expect(journal.filter((e) => e === 'tick').length).toBe(ticks);
    await expect(fetch(`${app.httpUrl}/health/live`)).rejects.toThrow();
    await expect(app.close()).resolves.toBeUndefined(); // idempotent
  });

  it('fails readiness while a required upstream is away, and only reports one that is not', async () => {
    const [closedPort] = (await freePorts(1)) as [number];
    const upstream = `127.0.0.1:${closedPort}`;
    for (const [readiness, status, overall] of [
      ['required', 503, 'unavailable'],
      ['reported', 200, 'degraded'],
    ] as const) {
      const app = await start({ upstream: readiness }, { UPSTREAM_GRPC_URL: upstream });
      try {
        const res = await fetch(`${app.httpUrl}/health/ready`);
        expect(res.status).toBe(status);
        expect(await res.json()).toMatchObject({
          status: overall,
          checks: { postgres: 'ok', nats: 'ok', identity: expect.stringMatching(/^down/) },
        });
      } finally {
        await app.close();
      }
    }
  });

  it('closes what it opened when start-up fails part-way, and serves nothing', async () => {
    journal.length = 0;
    const [httpPort] = (await freePorts(1)) as [number];
    const before = await connectionsTo(names.database);
    await expect(start({ failingResource: true }, { KITTEST_HTTP_PORT: httpPort })).rejects.toThrow('the object store said no');
    expect(journal).toContain('clock closed');
    await expect(fetch(`http://127.0.0.1:${httpPort}/health/live`)).rejects.toThrow();
    await waitFor(async () => ((await connectionsTo(names.database)) <= before ? true : undefined), 5000);
  });
});

async function connectionsTo(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: `${testInfra().postgresUrl}/postgres` });
  await admin.connect();
  try {
    return (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database])).rows[0].n as number;
  } finally {
    await admin.end();
  }
}
