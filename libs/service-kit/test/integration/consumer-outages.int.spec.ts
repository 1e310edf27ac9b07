import { randomUUID } from 'node:crypto';
import { startNatsServer, startPostgresServer, waitFor, type PrivateServer } from '@clipit/testing';
import { jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream';
import { pino, type Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CreateEventBusTables1763700000000 } from '../../src/bus/bus.migration.js';
import { EventConsumer } from '../../src/bus/consumer.js';
import { HandlerRegistry } from '../../src/bus/handlers.js';
import { dlqStreamName, dlqSubject } from '../../src/bus/jetstream.js';
import { Outbox } from '../../src/bus/outbox.js';
import { OutboxRelay } from '../../src/bus/relay.js';
import { dataSourceOptions, runMigrationsLocked } from '../../src/database/database.js';
import { createBusHarness, CreateApplied1763700000001, sampleUser, type BusHarness } from '../fixtures/bus-harness.js';

/**
 * Waits until the relay of `ds` has marked every row published. It marks a batch after JetStream acked the
 * whole of it, so a consumer can apply the last events a moment before their rows are marked.
 */
const allMarkedPublished = (ds: DataSource) =>
  waitFor(
    async () => {
      const [{ n }] = (await ds.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')) as [{ n: number }];
      return n === 0 ? true : undefined;
    },
    10_000,
    'every outbox row marked published',
  );

// Outages of the servers the bus stands on, with private servers the test stops and starts again
// (same data): the consumer and the relay must carry on by themselves, and nothing may be
// dead-lettered or stranded because a server was away.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The PostgreSQL outage below outlasts every budget the consumer runs with here (ack wait 3 s, outage backoff
 * cap 2 s, a dead letter at the second failure): 12 s outlasts each four times over. The real-time profile
 * (FAULT_PROFILE=real-time, run by `npm run test:faults:long`) keeps the 60 s it was first written with.
 */
const LONG_OUTAGE_MS = process.env['FAULT_PROFILE'] === 'real-time' ? 60_000 : 12_000;

/** A JSON logger that keeps its lines, so a test can see what was logged. */
function memoryLogger(): { logger: Logger; entries: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const logger = pino({ level: 'debug', messageKey: 'msg' }, { write: (line: string) => void lines.push(line) });
  return { logger, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

async function appliedTimes(ds: DataSource, consumer: string): Promise<Map<string, number>> {
  const rows = (await ds.query('SELECT event_id, times FROM applied WHERE consumer = $1', [consumer])) as Array<{
    event_id: string;
    times: number;
  }>;
  return new Map(rows.map((r) => [r.event_id, r.times]));
}

function recording(consumer: string): HandlerRegistry {
  return new HandlerRegistry().on('user.registered', async (event, tx) => {
    await tx.query(
      'INSERT INTO applied (event_id, consumer) VALUES ($1, $2) ON CONFLICT (event_id, consumer) DO UPDATE SET times = applied.times + 1',
      [event.id, consumer],
    );
  });
}

async function emit(ds: DataSource, prefix: string, n: number, label: string): Promise<string[]> {
  const outbox = new Outbox(prefix);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await ds.transaction((m) => outbox.append(m, 'user.registered', sampleUser(`${label}${i}`)))).id);
  return ids;
}

async function deadLetters(h: BusHarness, consumer: string): Promise<number> {
  const jsm = await jetstreamManager(h.nc);
  return (await jsm.streams.info(dlqStreamName(h.names), { subjects_filter: dlqSubject(h.names, consumer, 'user.registered') })).state
    .messages;
}

describe('the NATS server killed and started again with the same store', () => {
  let nats: PrivateServer;
  let h: BusHarness;
  let relay: OutboxRelay;
  let consumer: EventConsumer | undefined;

  beforeAll(async () => {
    nats = await startNatsServer();
    h = await createBusHarness('natsout', nats.url);
    relay = new OutboxRelay({
      dataSource: h.dataSource,
      databaseUrl: h.databaseUrl,
      nc: h.nc,
      stream: h.names.stream,
      logger: h.logger,
      pollIntervalMs: 200,
    });
    await relay.start();
  });

  afterAll(async () => {
    await consumer?.stop();
    await relay.stop();
    await h.close();
    await nats.close();
  });

  it('the consumer resumes by itself and the relay publishes what was written meanwhile; each event applied once', async () => {
    const name = `natsout_${randomUUID().slice(0, 8)}`;
    const log = memoryLogger();
    consumer = new EventConsumer({
      name,
      nc: h.nc,
      names: h.names,
      dataSource: h.dataSource,
      registry: recording(name),
      subscriptions: ['user.registered'],
      logger: log.logger,
      ackWaitMs: 2000,
    });
    await consumer.start();
    const all = (ids: string[], label: string) =>
      waitFor(
        async () => {
          const m = await appliedTimes(h.dataSource, name);
          return ids.every((id) => m.has(id)) ? m : undefined;
        },
        30000,
        label,
      );

    const before = await emit(h.dataSource, h.names.subjectPrefix, 5, 'before');
    await all(before, 'events before the outage applied');

    await nats.process.kill();
    const during = await emit(h.dataSource, h.names.subjectPrefix, 5, 'during');
    await sleep(3000);
    const [{ n: unpublished }] = (await h.dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')) as [
      { n: number },
    ];
    expect(unpublished).toBe(5);
    await nats.process.start();

    const after = await emit(h.dataSource, h.names.subjectPrefix, 5, 'after');
    const applied = await all([...before, ...during, ...after], 'every event applied after NATS came back');
    expect([...applied.values()]).toEqual(Array(15).fill(1));
    expect(await deadLetters(h, name)).toBe(0);
    await allMarkedPublished(h.dataSource);
  });

  it('starts consuming again, with a log line, when the client ends its message iterator by itself', async () => {
    // The client recovered from the kill above without ending its iterator; this closes it as a
    // client giving up would, to prove the loop does not end with it.
    await consumer?.stop();
    const name = `iterend_${randomUUID().slice(0, 8)}`;
    const log = memoryLogger();
    consumer = new EventConsumer({
      name,
      nc: h.nc,
      names: h.names,
      dataSource: h.dataSource,
      registry: recording(name),
      subscriptions: ['user.registered'],
      logger: log.logger,
    });
    await consumer.start();
    await (Reflect.get(consumer, 'messages') as ConsumerMessages).close();
    await waitFor(
      () =>
        log.entries().some((e) => e.level === 40 && String(e.msg).includes('the message stream ended; consuming again')) ? true : undefined,
      5000,
      'the restart logged',
    );

    const ids = await emit(h.dataSource, h.names.subjectPrefix, 3, 'later');
    await waitFor(
      async () => {
        const m = await appliedTimes(h.dataSource, name);
        return ids.every((id) => m.get(id) === 1) ? true : undefined;
      },
      15000,
      'events after the restart applied',
    );
  });
});

describe(`a ${LONG_OUTAGE_MS / 1000} s PostgreSQL outage under the consumer and the relay`, () => {
  let postgres: PrivateServer;
  let ds: DataSource;
  let h: BusHarness;
  let feeder: OutboxRelay;
  let relay: OutboxRelay | undefined;
  let consumer: EventConsumer | undefined;

  beforeAll(async () => {
    postgres = await startPostgresServer();
    ds = new DataSource(
      dataSourceOptions({
        url: `${postgres.url}/postgres`,
        entities: [],
        migrations: [CreateEventBusTables1763700000000, CreateApplied1763700000001],
      }),
    );
    await ds.initialize();
    await runMigrationsLocked(ds);
    // Events come from another database (the shared one), so they keep arriving while ours is down.
    h = await createBusHarness('pgout');
    feeder = new OutboxRelay({
      dataSource: h.dataSource,
      databaseUrl: h.databaseUrl,
      nc: h.nc,
      stream: h.names.stream,
      logger: h.logger,
      pollIntervalMs: 200,
    });
    await feeder.start();
  });

  afterAll(async () => {
    await consumer?.stop();
    await relay?.stop();
    await feeder.stop();
    await h.close();
    await ds.destroy().catch(() => undefined);
    await postgres.close();
  });

  it('ends with every event applied once, nothing dead-lettered, and the relay publishing again', async () => {
    const name = `pgout_${randomUUID().slice(0, 8)}`;
    const log = memoryLogger();
    consumer = new EventConsumer({
      name,
      nc: h.nc,
      names: h.names,
      dataSource: ds,
      registry: recording(name),
      subscriptions: ['user.registered'],
      logger: log.logger,
      maxAttempts: 2, // an outage counted as attempts would dead-letter at once
      backoffMs: [100],
      outageBackoffMs: [100, 500, 1000, 2000],
      ackWaitMs: 3000,
      batchSize: 4,
    });
    await consumer.start();
    // Our database's own relay, publishing to the same stream.
    relay = new OutboxRelay({
      dataSource: ds,
      databaseUrl: `${postgres.url}/postgres`,
      nc: h.nc,
      stream: h.names.stream,
      logger: log.logger,
      pollIntervalMs: 200,
    });
    await relay.start();
    const all = (ids: string[], label: string, timeoutMs = 30000) =>
      waitFor(
        async () => {
          const m = await appliedTimes(ds, name);
          return ids.every((id) => m.has(id)) ? m : undefined;
        },
        timeoutMs,
        label,
      );

    const before = await emit(h.dataSource, h.names.subjectPrefix, 5, 'before');
    await all(before, 'events before the outage applied');

    await postgres.process.stop();
    const during = await emit(h.dataSource, h.names.subjectPrefix, 20, 'during');
    await sleep(LONG_OUTAGE_MS);
    expect(await deadLetters(h, name)).toBe(0);
    await postgres.process.start();

    const applied = await all([...before, ...during], 'every event applied after Postgres came back', 60000);
    expect([...applied.values()]).toEqual(Array(25).fill(1));
    expect(
      log.entries().some((e) => e.msg === 'database unavailable; event will be retried (outages never count toward dead-lettering)'),
    ).toBe(true);

    // The relay on the database that was away publishes again.
    const own = await emit(ds, h.names.subjectPrefix, 3, 'own');
    const final = await all([...before, ...during, ...own], 'events written after the outage published and applied');
    expect([...final.values()]).toEqual(Array(28).fill(1));
    await allMarkedPublished(ds);

    // Settled: nothing pending or awaiting an ack, nothing dead-lettered.
    const jsm = await jetstreamManager(h.nc);
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(h.names.stream, name);
        return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
      },
      20000,
      'the consumer settled',
    );
    expect(await deadLetters(h, name)).toBe(0);
  }, 180_000);
});
