// One isolated queue worker pipeline per test file, the way every worker's harness starts it: its own Redis
// key prefix (so its own queue), stream and subject prefix; the producer's queue handle; a JetStream consumer
// collecting every event the worker publishes; workers in this process or as OS processes of the built
// service (for kill and shutdown tests). A worker's own harness (services/<name>/test/support) extends it
// with what its jobs need (files in storage, the X stand-in, …).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@clipit/contracts';
import { connectEventBus, jetstream, jetstreamManager, type NatsConnection } from '@clipit/service-kit';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { deleteEventStreams } from './cleanup.js';
import { isolatedNames, testInfra } from './infra.js';
import type { ReceivedEvent } from './service-under-test.js';
import { freePorts } from './ports.js';
import { waitFor } from './wait.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A worker started as its own OS process (the built service), for kill and shutdown tests. */
export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  httpPort: number;
}

/** The parts of the producer's BullMQ queue the harness uses. */
export interface HarnessQueue {
  getJobState(jobId: string): Promise<string>;
  obliterate(opts: { force: boolean }): Promise<void>;
  close(): Promise<void>;
}

type Overrides = Record<string, string | number | boolean | undefined>;

export interface WorkerHarnessOptions<A, Q extends HarnessQueue, O extends Overrides> {
  /** The worker's folder under services/ and the prefix of its variables (`media-worker`: MEDIA_WORKER_*). */
  service: string;
  /** The source its events are published under (eventCatalog); the service's name by default. */
  eventSource?: string;
  /** Starts a worker in this process (the service's bootstrap function). */
  bootstrap: (overrides: O) => Promise<A>;
  /** The producer's handle on the worker's queue, on this pipeline's key prefix. */
  openQueue: (redisUrl: string, redisKeyPrefix: string) => Q;
  /** A private NATS (startNatsServer) for outage tests; the run's shared one by default. */
  natsUrl?: string;
  /** What a worker process inherits: the whole environment of the test (default), or only PATH. */
  processEnv?: 'inherit' | 'path-only';
}

/** `media-worker` → `MEDIA_WORKER`: the prefix of a worker's variables. */
const prefixOf = (service: string) => service.toUpperCase().replaceAll('-', '_');

export class WorkerHarness<A extends { close(): Promise<void> }, E extends EventEnvelope, Q extends HarnessQueue, O extends Overrides> {
  readonly names: ReturnType<typeof isolatedNames>;
  readonly events: ReceivedEvent<E>[] = [];
  readonly workers: A[] = [];
  readonly processes: WorkerProcess[] = [];
  queue!: Q;
  nc!: NatsConnection;
  protected readonly natsUrl: string;
  private readonly prefix: string;
  private messages: ConsumerMessages | undefined;
  private reading: Promise<void> | undefined;

  constructor(private readonly options: WorkerHarnessOptions<A, Q, O>) {
    this.names = isolatedNames(options.service);
    this.natsUrl = options.natsUrl ?? testInfra().natsUrl;
    this.prefix = prefixOf(options.service);
  }

  async start(): Promise<this> {
    this.queue = this.options.openQueue(testInfra().redisUrl, this.names.redisKeyPrefix);
    this.nc = await connectEventBus(this.natsUrl, `${this.options.service}-test`, {
      stream: this.names.stream,
      subjectPrefix: this.names.subjectPrefix,
    });
    const consumer = await jetstream(this.nc).consumers.get(this.names.stream, {
      filter_subjects: `${this.names.subjectPrefix}.${this.options.eventSource ?? this.options.service}.>`,
    });
    const messages = await consumer.consume();
    this.messages = messages;
    this.reading = (async () => {
      for await (const msg of messages) {
        this.events.push({ subject: msg.subject, msgId: msg.headers?.get('Nats-Msg-Id'), envelope: msg.json<E>() });
      }
    })().catch(() => undefined); // a NATS outage may end the reading: outage tests read the stream itself (storedEventCount)
    return this;
  }

  /** What a worker of this pipeline needs besides the pipeline's names and ports (a worker's harness adds to it). */
  protected workerEnv(): O {
    return {} as O;
  }

  /** The variables a worker of this pipeline runs with: its names, its ports, quiet logs, the worker's own, then `extra`. */
  env(httpPort: number, extra: O = {} as O): Record<string, string> {
    const vars: Overrides = {
      NATS_URL: this.natsUrl,
      REDIS_URL: testInfra().redisUrl,
      REDIS_KEY_PREFIX: this.names.redisKeyPrefix,
      EVENTS_STREAM: this.names.stream,
      EVENTS_SUBJECT_PREFIX: this.names.subjectPrefix,
      [`${this.prefix}_HTTP_PORT`]: httpPort,
      [`${this.prefix}_BIND_HOST`]: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...this.workerEnv(),
      ...extra,
    };
    return Object.fromEntries(Object.entries(vars).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  }

  /** A worker in this process. */
  async startWorker(extra: O = {} as O): Promise<A> {
    const [port] = (await freePorts(1)) as [number];
    const worker = await this.options.bootstrap(this.env(port, extra) as O);
    this.workers.push(worker);
    return worker;
  }

  /** Builds the service (tsc -b, incremental) so worker processes run the current code. */
  build(): void {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript-native/bin/tsc`, '-b', `${ROOT}services/${this.options.service}`], {
      stdio: 'inherit',
    });
  }

  /** A worker as its own process (services/<service>/dist/main.js), ready when /health/ready answers 200. */
  async startProcess(extra: O = {} as O): Promise<WorkerProcess> {
    const [httpPort] = (await freePorts(1)) as [number];
    const inherited = this.options.processEnv === 'path-only' ? { PATH: process.env['PATH'] ?? '' } : process.env;
    const child = spawn(process.execPath, [`${ROOT}services/${this.options.service}/dist/main.js`], {
      cwd: ROOT,
      env: { ...inherited, ...this.env(httpPort, { LOG_LEVEL: 'info', ...extra }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const proc = { child, output: () => output, exited, httpPort };
    this.processes.push(proc);
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${output}`);
        const res = await fetch(`http://127.0.0.1:${httpPort}/health/ready`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      },
      30_000,
      'worker process ready',
    );
    return proc;
  }

  /** The events received so far that `match`. */
  eventsWhere(match: (envelope: E) => boolean): ReceivedEvent<E>[] {
    return this.events.filter((e) => match(e.envelope));
  }

  async waitForEventWhere(match: (envelope: E) => boolean, timeoutMs: number, what: string): Promise<ReceivedEvent<E>> {
    return waitFor(() => this.eventsWhere(match)[0], timeoutMs, what);
  }

  async waitForState(jobId: string, state: string, timeoutMs = 20_000): Promise<true> {
    return waitFor(async () => ((await this.queue.getJobState(jobId)) === state ? true : undefined), timeoutMs, `job ${jobId} ${state}`);
  }

  /** How many messages the stream holds that `match` (the consumer above could in principle see redeliveries). */
  async storedEventsWhere(match: (envelope: E | undefined) => boolean): Promise<number> {
    const jsm = await jetstreamManager(this.nc);
    const info = await jsm.streams.info(this.names.stream);
    let count = 0;
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(this.names.stream, { seq }).catch(() => undefined);
      if (match(msg?.json<E>())) count++;
    }
    return count;
  }

  /** Kills the worker processes, closes the workers, then removes the queue, the stream and the connection. */
  async stop(): Promise<void> {
    for (const p of this.processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(this.processes.map((p) => p.exited));
    for (const w of this.workers) await w.close();
    await this.messages?.close();
    await this.reading;
    if (this.queue) {
      await this.queue.obliterate({ force: true }).catch(() => undefined);
      await this.queue.close();
    }
    if (this.nc) {
      await deleteEventStreams(this.nc, this.names.stream);
      await this.nc.close();
    }
  }
}
