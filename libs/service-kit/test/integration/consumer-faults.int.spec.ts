import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startNatsServer, waitFor, type PrivateServer } from '@clipit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { dlqStreamName, dlqSubject } from '../../src/bus/jetstream.js';
import { Outbox } from '../../src/bus/outbox.js';
import { OutboxRelay } from '../../src/bus/relay.js';
import { createBusHarness, sampleUser, type BusHarness } from '../fixtures/bus-harness.js';

// The bus proofs that only hold if the inbox, the term and the ack path do their jobs: each test here
// fails when one of them is taken away (inbox check skipped, term() removed, ack back in the
// handler's error path), with real replica processes running the built kit against Postgres and NATS.

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/consumer-process.mjs', import.meta.url));

type Mode = 'normal' | 'kill-after-commit' | 'slow' | 'fail' | 'fail-then-pause';

interface Proc {
  child: ChildProcess;
  lines: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The kit's JSON log lines a replica printed (LOG_LEVEL set), parsed. */
function logLines(proc: Proc): Array<Record<string, unknown>> {
  return proc.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A bus on its own database and stream, a relay feeding it, and replica processes to start. */
function busWithReplicas(label: string, nats?: () => PrivateServer) {
  const ctx = { h: undefined as unknown as BusHarness, relay: undefined as unknown as OutboxRelay, procs: [] as Proc[] };

  beforeAll(async () => {
    ctx.h = await createBusHarness(label, nats?.().url);
    ctx.relay = new OutboxRelay({
      dataSource: ctx.h.dataSource,
      databaseUrl: ctx.h.databaseUrl,
      nc: ctx.h.nc,
      stream: ctx.h.names.stream,
      logger: ctx.h.logger,
      pollIntervalMs: 200,
    });
    await ctx.relay.start();
  });

  afterEach(async () => {
    await Promise.all(
      ctx.procs.splice(0).map((p) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
        const exited = new Promise((r) => p.child.once('exit', r));
        p.child.kill('SIGKILL');
        return exited;
      }),
    );
  });

  afterAll(async () => {
    await ctx.relay.stop();
    await ctx.h.close();
  });

  const start = (mode: Mode, consumer: string, env: Record<string, string> = {}): Proc => {
    const child = spawn(process.execPath, [fixture], {
      cwd: root,
      env: {
        ...process.env,
        DB_URL: ctx.h.databaseUrl,
        NATS_URL: ctx.h.natsUrl,
        STREAM: ctx.h.names.stream,
        PREFIX: ctx.h.names.subjectPrefix,
        CONSUMER: consumer,
        MODE: mode,
        ACK_WAIT_MS: '1000',
        LOG_LEVEL: 'debug',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const proc = { child, lines: [] as string[] };
    let partial = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      proc.lines.push(...parts.filter(Boolean));
    });
    ctx.procs.push(proc);
    return proc;
  };

  const ready = (proc: Proc) => waitFor(() => (proc.lines.includes('READY') ? true : undefined), 20000, 'replica ready');

  const emit = async (n: number): Promise<string[]> => {
    const outbox = new Outbox(ctx.h.names.subjectPrefix);
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await ctx.h.dataSource.transaction((m) => outbox.append(m, 'user.registered', sampleUser(`f${i}`)))).id);
    return ids;
  };

  const appliedTimes = async (consumer: string): Promise<Map<string, number>> => {
    const rows = (await ctx.h.dataSource.query('SELECT event_id, times FROM applied WHERE consumer = $1', [consumer])) as Array<{
      event_id: string;
      times: number;
    }>;
    return new Map(rows.map((r) => [r.event_id, r.times]));
  };

  const consumerInfo = async (consumer: string) => (await jetstreamManager(ctx.h.nc)).consumers.info(ctx.h.names.stream, consumer);

  /** Waits until the server has nothing left for the consumer: all delivered and acked (or terminated). */
  const settled = (consumer: string, timeoutMs = 20000) =>
    waitFor(
      async () => {
        const info = await consumerInfo(consumer);
        return info.num_pending === 0 && info.num_ack_pending === 0 ? info : undefined;
      },
      timeoutMs,
      `consumer ${consumer} settled`,
    );

  const deadLetters = async (consumer: string): Promise<number> => {
    const jsm = await jetstreamManager(ctx.h.nc);
    const info = await jsm.streams.info(dlqStreamName(ctx.h.names), {
      subjects_filter: dlqSubject(ctx.h.names, consumer, 'user.registered'),
    });
    return info.state.messages;
  };

  return { ctx, start, ready, emit, appliedTimes, consumerInfo, settled, deadLetters };
}

beforeAll(() => {
  // The replica processes run the built kit.
  execFileSync(process.execPath, [`${root}node_modules/typescript-native/bin/tsc`, '-b', `${root}libs/service-kit`], { stdio: 'inherit' });
});

describe('consumer replicas under faults (real processes, Postgres and JetStream)', () => {
  // Each proof on a stream of its own: a new durable consumer reads the whole stream.
  describe('kill after commit', () => {
    const bus = busWithReplicas('killack');
    it('a replica killed after its commit and before its ack: the redelivery is a duplicate, the effect applied once', async () => {
      const consumer = `killack_${randomUUID().slice(0, 8)}`;
      const first = bus.start('kill-after-commit', consumer);
      await bus.ready(first);
      const exited = new Promise((r) => first.child.once('exit', (_code, signal) => r(signal)));
      const [id] = await bus.emit(1);
      expect(await exited).toBe('SIGKILL');
      // It died with the effect and the inbox row committed, and the ack never sent.
      expect((await bus.appliedTimes(consumer)).get(id!)).toBe(1);
      expect((await bus.consumerInfo(consumer)).num_ack_pending).toBe(1);

      const second = bus.start('normal', consumer);
      await bus.ready(second);
      await bus.settled(consumer);
      // The replica logs after its ack is confirmed, which may reach us after the server shows it settled.
      await waitFor(() => (logLines(second).some((l) => l.msg === 'event processed') ? true : undefined), 5000, 'the redelivery logged');
      const processed = logLines(second).filter((l) => l.msg === 'event processed' && l.eventId === id);
      expect(processed).toEqual([expect.objectContaining({ outcome: 'duplicate', deliveryCount: 2 })]);
      expect(second.lines.filter((l) => l.startsWith('RUN '))).toEqual([]);
      expect((await bus.appliedTimes(consumer)).get(id!)).toBe(1);
    });
  });

  describe('slow replicas', () => {
    const bus = busWithReplicas('slow');
    it('two replicas and a handler slower than the ack wait: events are redelivered mid-work and still applied exactly once', async () => {
      const consumer = `slow_${randomUUID().slice(0, 8)}`;
      const a = bus.start('slow', consumer, { SLOW_MS: '1500' });
      const b = bus.start('slow', consumer, { SLOW_MS: '1500' });
      await bus.ready(a);
      await bus.ready(b);
      const ids = await bus.emit(30);
      await waitFor(
        async () => {
          const m = await bus.appliedTimes(consumer);
          return ids.every((id) => m.has(id)) ? true : undefined;
        },
        60000,
        'all 30 events applied',
      );
      await bus.settled(consumer, 30000);
      await sleep(1500); // one more ack wait: nothing else may happen

      const applied = await bus.appliedTimes(consumer);
      expect(ids.map((id) => applied.get(id))).toEqual(ids.map(() => 1));
      const processed = [...logLines(a), ...logLines(b)].filter((l) => l.msg === 'event processed');
      // Redeliveries really happened, and every one of them found the inbox row.
      expect(processed.some((l) => (l.deliveryCount as number) > 1)).toBe(true);
      expect(processed.filter((l) => l.outcome === 'handled')).toHaveLength(30);
      expect(processed.filter((l) => l.outcome === 'duplicate').length).toBeGreaterThan(0);
      const [{ n }] = (await bus.ctx.h.dataSource.query('SELECT count(*)::int AS n FROM inbox WHERE consumer = $1', [consumer])) as [
        { n: number },
      ];
      expect(n).toBe(30);
    });
  });

  describe('dead letters', () => {
    const bus = busWithReplicas('dead');
    it('a dead-lettered event is never delivered again', async () => {
      const consumer = `dead_${randomUUID().slice(0, 8)}`;
      const proc = bus.start('fail', consumer, { MAX_ATTEMPTS: '3' });
      await bus.ready(proc);
      const [id] = await bus.emit(1);
      await waitFor(async () => ((await bus.deadLetters(consumer)) === 1 ? true : undefined), 15000, 'the dead letter');
      const runs = () => proc.lines.filter((l) => l.startsWith(`RUN ${id} `));
      expect(runs()).toHaveLength(3);
      const before = await bus.settled(consumer, 5000);

      await sleep(4000); // four ack waits
      expect(runs()).toHaveLength(3);
      expect(await bus.deadLetters(consumer)).toBe(1);
      const after = await bus.consumerInfo(consumer);
      expect(after.num_ack_pending).toBe(0);
      expect(after.delivered.consumer_seq).toBe(before.delivered.consumer_seq);
      expect(after.delivered.consumer_seq).toBe(3);
    });
  });
});

describe('an ack lost after the commit on the last attempt (private NATS server, real process)', () => {
  let nats: PrivateServer;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.close();
  });
  const bus = busWithReplicas('ackloss', () => nats);

  it('is not dead-lettered, and is applied exactly once once NATS is back', async () => {
    const consumer = `ackloss_${randomUUID().slice(0, 8)}`;
    const proc = bus.start('fail-then-pause', consumer, { MAX_ATTEMPTS: '2', ACK_TIMEOUT_MS: '1000', ACK_WAIT_MS: '2000' });
    await bus.ready(proc);
    const [id] = await bus.emit(1);
    await waitFor(() => (proc.lines.includes(`COMMITTED ${id}`) ? true : undefined), 15000, 'the last attempt committed');
    expect((await bus.appliedTimes(consumer)).get(id!)).toBe(1);

    // NATS goes away between the commit and the ack; the replica then tries to ack.
    await nats.process.stop();
    proc.child.stdin!.write('ack now\n');
    await sleep(2500);
    await nats.process.start();

    await waitFor(
      async () => {
        const info = await bus.consumerInfo(consumer);
        return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
      },
      30000,
      'the event settled after NATS came back',
    );
    await sleep(3000); // an ack wait and more: nothing else may happen
    expect(await bus.deadLetters(consumer)).toBe(0);
    expect((await bus.appliedTimes(consumer)).get(id!)).toBe(1);
    expect(proc.lines.filter((l) => l.startsWith(`RUN ${id} `))).toHaveLength(2);
    expect(
      logLines(proc).some(
        (l) => l.msg === 'event applied but its ack failed; the server will redeliver it and the inbox will answer duplicate',
      ),
    ).toBe(true);
  });
});
