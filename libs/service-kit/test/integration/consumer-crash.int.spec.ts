import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { testInfra, waitFor } from '@clipit/testing';
import { Outbox } from '../../src/bus/outbox.js';
import { OutboxRelay } from '../../src/bus/relay.js';
import { createBusHarness, sampleUser, type BusHarness } from '../fixtures/bus-harness.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/consumer-process.mjs', import.meta.url));

interface Proc {
  child: ChildProcess;
  lines: string[];
}

describe('a consumer killed in the middle of handling (real processes, Postgres and JetStream)', () => {
  let h: BusHarness;
  let relay: OutboxRelay;
  const procs: Proc[] = [];

  beforeAll(async () => {
    // The child processes run the built kit.
    execFileSync(process.execPath, [`${root}node_modules/typescript-native/bin/tsc`, '-b', `${root}libs/service-kit`], {
      stdio: 'inherit',
    });
    h = await createBusHarness('crash');
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
    for (const p of procs) p.child.kill('SIGKILL');
    await relay.stop();
    await h.close();
  });

  function start(mode: 'hang' | 'normal', consumer: string): Proc {
    const child = spawn(process.execPath, [fixture], {
      cwd: root,
      env: {
        ...process.env,
        DB_URL: h.databaseUrl,
        NATS_URL: testInfra().natsUrl,
        STREAM: h.names.stream,
        PREFIX: h.names.subjectPrefix,
        CONSUMER: consumer,
        MODE: mode,
        ACK_WAIT_MS: '1500',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const proc = { child, lines: [] as string[] };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => proc.lines.push(...chunk.split('\n').filter(Boolean)));
    procs.push(proc);
    return proc;
  }

  it('gets the event again on another replica and applies it exactly once', async () => {
    const consumer = `crash_${randomUUID().slice(0, 8)}`;
    const first = start('hang', consumer);
    await waitFor(() => (first.lines.includes('READY') ? true : undefined), 20000, 'first replica ready');

    const event = await h.dataSource.transaction((m) =>
      new Outbox(h.names.subjectPrefix).append(m, 'user.registered', sampleUser('crash')),
    );
    await waitFor(
      () => (first.lines.includes(`HANDLING ${event.id}`) ? true : undefined),
      10000,
      'first replica in the middle of the event',
    );

    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    // Its open transaction died with it: nothing applied yet.
    expect(await h.dataSource.query('SELECT count(*)::int AS n FROM applied WHERE event_id = $1', [event.id])).toEqual([{ n: 0 }]);

    const second = start('normal', consumer);
    await waitFor(
      () => (second.lines.includes(`HANDLED ${event.id}`) ? true : undefined),
      20000,
      'second replica to get the event after the ack wait',
    );
    await waitFor(
      async () => {
        const rows = (await h.dataSource.query('SELECT times FROM applied WHERE event_id = $1 AND consumer = $2', [
          event.id,
          consumer,
        ])) as Array<{ times: number }>;
        return rows.length === 1 ? rows : undefined;
      },
      10000,
      'the application committed',
    );

    // Give the server time to redeliver again if the ack had been lost; nothing more may happen.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await h.dataSource.query('SELECT times FROM applied WHERE event_id = $1 AND consumer = $2', [event.id, consumer])).toEqual([
      { times: 1 },
    ]);
    expect(
      await h.dataSource.query('SELECT count(*)::int AS n FROM inbox WHERE event_id = $1 AND consumer = $2', [event.id, consumer]),
    ).toEqual([{ n: 1 }]);
    expect(second.lines.filter((l) => l === `HANDLED ${event.id}`)).toHaveLength(1);
  });
});
