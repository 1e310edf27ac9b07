import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { REFRESH_METRICS_JOB, type EventEnvelope, type MetricsFetchedV1, type RefreshMetricsJob } from '@clipit/contracts';
import { createMetricsQueue, REFRESH_METRICS_JOB_OPTIONS, type MetricsQueue } from '@clipit/media-queue';
import { connectEventBus, jetstream, jetstreamManager, type NatsConnection } from '@clipit/service-kit';
import { deleteEventStreams, freePorts, isolatedNames, testInfra, waitFor, XApiStandIn, type XApiStandInOptions } from '@clipit/testing';
import type { ConsumerMessages } from '@nats-io/jetstream';
import type { JobsOptions } from 'bullmq';
import { bootstrapMetricsWorker, type MetricsWorkerApp, type MetricsWorkerConfigOverrides } from '../../src/app.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export type MetricsFetchedEnvelope = EventEnvelope<'metrics.fetched', MetricsFetchedV1>;

export interface ReceivedEvent {
  subject: string;
  msgId: string | undefined;
  envelope: MetricsFetchedEnvelope;
}

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  httpPort: number;
}

/** A run of distinct X post ids, unlikely to meet another test's. */
let nextId = BigInt(Date.now()) * 1000n;
export const postId = (): string => String(nextId++);

/**
 * One isolated metrics pipeline per test file: its own Redis key prefix (so its own queue), stream and
 * subject prefix; the X stand-in (libs/testing) as X; the producer's queue from @clipit/media-queue; a
 * JetStream consumer collecting every metrics-worker event; workers in this process or as child processes.
 */
export class MetricsWorkerHarness {
  readonly names = isolatedNames('metricsworker');
  readonly events: ReceivedEvent[] = [];
  readonly workers: MetricsWorkerApp[] = [];
  readonly processes: WorkerProcess[] = [];
  x!: XApiStandIn;
  queue!: MetricsQueue;
  nc!: NatsConnection;
  private messages: ConsumerMessages | undefined;
  private reading: Promise<void> | undefined;

  /** `natsUrl`: a private NATS (startNatsServer) for outage tests; the run's shared one by default. */
  constructor(
    private readonly natsUrl: string = testInfra().natsUrl,
    private readonly xOptions: XApiStandInOptions = {},
  ) {}

  async start(): Promise<this> {
    this.x = await new XApiStandIn(this.xOptions).start();
    this.queue = createMetricsQueue({ redisUrl: testInfra().redisUrl, prefix: this.names.redisKeyPrefix });
    this.nc = await connectEventBus(this.natsUrl, 'metrics-worker-test', {
      stream: this.names.stream,
      subjectPrefix: this.names.subjectPrefix,
    });
    const consumer = await jetstream(this.nc).consumers.get(this.names.stream, {
      filter_subjects: `${this.names.subjectPrefix}.metrics-worker.>`,
    });
    const messages = await consumer.consume();
    this.messages = messages;
    this.reading = (async () => {
      for await (const msg of messages) {
        this.events.push({ subject: msg.subject, msgId: msg.headers?.get('Nats-Msg-Id'), envelope: msg.json<MetricsFetchedEnvelope>() });
      }
    })().catch(() => undefined); // a NATS outage may end the reading: outage tests read the stream itself
    return this;
  }

  /** The variables a worker of this pipeline runs with: fast timeouts and short pauses, X = the stand-in. */
  env(httpPort: number, extra: MetricsWorkerConfigOverrides = {}): Record<string, string> {
    const vars: MetricsWorkerConfigOverrides = {
      NATS_URL: this.natsUrl,
      REDIS_URL: testInfra().redisUrl,
      REDIS_KEY_PREFIX: this.names.redisKeyPrefix,
      EVENTS_STREAM: this.names.stream,
      EVENTS_SUBJECT_PREFIX: this.names.subjectPrefix,
      X_API_BASE_URL: this.x.url,
      X_API_BEARER_TOKEN: this.x.bearerToken,
      X_API_TIMEOUT_MS: 2000,
      METRICS_WORKER_HTTP_PORT: httpPort,
      METRICS_WORKER_BIND_HOST: '127.0.0.1',
      METRICS_WORKER_LOCK_DURATION_MS: 5000,
      METRICS_WORKER_STALLED_INTERVAL_MS: 2000,
      METRICS_WORKER_RATE_LIMIT_MARGIN_MS: 50,
      METRICS_WORKER_RATE_LIMIT_BACKOFF_MIN_MS: 300,
      METRICS_WORKER_RATE_LIMIT_BACKOFF_MAX_MS: 2000,
      METRICS_WORKER_PARTIAL_RETRY_DELAY_MS: 200,
      LOG_LEVEL: 'warn',
      ...extra,
    };
    return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)]));
  }

  async startWorker(extra: MetricsWorkerConfigOverrides = {}): Promise<MetricsWorkerApp> {
    const [port] = (await freePorts(1)) as [number];
    const worker = await bootstrapMetricsWorker(this.env(port, extra));
    this.workers.push(worker);
    return worker;
  }

  static build(): void {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-b', `${ROOT}services/metrics-worker`], {
      stdio: 'inherit',
    });
  }

  /** A worker as its own process (services/metrics-worker/dist/main.js), ready when /health/ready answers 200. */
  async startProcess(extra: MetricsWorkerConfigOverrides = {}): Promise<WorkerProcess> {
    const [httpPort] = (await freePorts(1)) as [number];
    const child = spawn(process.execPath, [`${ROOT}services/metrics-worker/dist/main.js`], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...this.env(httpPort, { LOG_LEVEL: 'info', ...extra }) },
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

  /** A batch of `count` new posts (held by the stand-in unless `atX` is false), queued as the submissions scheduler would. */
  async queueBatch(count: number, opts: { atX?: boolean; jobOptions?: JobsOptions; batchId?: string } = {}): Promise<RefreshMetricsJob> {
    const job: RefreshMetricsJob = {
      batchId: opts.batchId ?? `batch-${randomUUID()}`,
      posts: Array.from({ length: count }, () => ({ submissionId: randomUUID(), externalId: postId() })),
    };
    if (opts.atX !== false) for (const p of job.posts) this.x.setPost(p.externalId);
    await this.queue.add(REFRESH_METRICS_JOB, job, { ...REFRESH_METRICS_JOB_OPTIONS, ...opts.jobOptions, jobId: job.batchId });
    return job;
  }

  eventsFor(batchId: string): ReceivedEvent[] {
    return this.events.filter((e) => e.envelope.data.batchId === batchId);
  }

  async waitForEvent(batchId: string, timeoutMs = 20_000): Promise<ReceivedEvent> {
    return waitFor(() => this.eventsFor(batchId)[0], timeoutMs, `metrics.fetched of batch ${batchId}`);
  }

  async waitForState(batchId: string, state: string, timeoutMs = 20_000): Promise<true> {
    return waitFor(
      async () => ((await this.queue.getJobState(batchId)) === state ? true : undefined),
      timeoutMs,
      `job ${batchId} ${state}`,
    );
  }

  /** How many metrics.fetched the stream holds for a batch. */
  async storedEventCount(batchId: string): Promise<number> {
    const jsm = await jetstreamManager(this.nc);
    const info = await jsm.streams.info(this.names.stream);
    let count = 0;
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(this.names.stream, { seq }).catch(() => undefined);
      const envelope = msg?.json<MetricsFetchedEnvelope>();
      if (envelope?.type === 'metrics.fetched' && envelope.data.batchId === batchId) count++;
    }
    return count;
  }

  async stop(): Promise<void> {
    for (const p of this.processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(this.processes.map((p) => p.exited));
    for (const w of this.workers) await w.close();
    await this.messages?.close();
    await this.reading;
    await this.queue.obliterate({ force: true }).catch(() => undefined);
    await this.queue.close();
    await deleteEventStreams(this.nc, this.names.stream);
    await this.nc.close();
    await this.x.close();
  }
}
