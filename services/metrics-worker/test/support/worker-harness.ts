import { randomUUID } from 'node:crypto';
import { REFRESH_METRICS_JOB, type EventEnvelope, type MetricsFetchedV1, type RefreshMetricsJob } from '@clipit/contracts';
import { createMetricsQueue, REFRESH_METRICS_JOB_OPTIONS, type MetricsQueue } from '@clipit/media-queue';
import {
  WorkerHarness,
  testInfra,
  XApiStandIn,
  type ReceivedEvent as Received,
  type WorkerProcess,
  type XApiStandInOptions,
} from '@clipit/testing';
import type { JobsOptions } from 'bullmq';
import { bootstrapMetricsWorker, type MetricsWorkerApp, type MetricsWorkerConfigOverrides } from '../../src/app.js';

export type MetricsFetchedEnvelope = EventEnvelope<'metrics.fetched', MetricsFetchedV1>;
export type ReceivedEvent = Received<MetricsFetchedEnvelope>;
export type { WorkerProcess };

/** A run of distinct X post ids, unlikely to meet another test's. */
let nextId = BigInt(Date.now()) * 1000n;
export const postId = (): string => String(nextId++);

/**
 * One isolated metrics pipeline per test file (the kit's WorkerHarness from @clipit/testing: its own queue,
 * stream and subject prefix, the events the worker publishes, workers in this process or as processes),
 * with the X stand-in (libs/testing) as X and batches queued as the submissions scheduler would.
 */
export class MetricsWorkerHarness extends WorkerHarness<
  MetricsWorkerApp,
  MetricsFetchedEnvelope,
  MetricsQueue,
  MetricsWorkerConfigOverrides
> {
  x!: XApiStandIn;

  constructor(
    natsUrl: string = testInfra().natsUrl,
    private readonly xOptions: XApiStandInOptions = {},
  ) {
    super({
      service: 'metrics-worker',
      bootstrap: bootstrapMetricsWorker,
      openQueue: (redisUrl, prefix) => createMetricsQueue({ connection: { url: redisUrl }, prefix }),
      natsUrl,
      // Only what is given here: no X token or URL of the developer's environment reaches the worker.
      processEnv: 'path-only',
    });
  }

  static build(): void {
    new MetricsWorkerHarness().build();
  }

  override async start(): Promise<this> {
    this.x = await new XApiStandIn(this.xOptions).start();
    return super.start();
  }

  /** Fast timeouts and short pauses, X = the stand-in. */
  protected override workerEnv(): MetricsWorkerConfigOverrides {
    return {
      X_API_BASE_URL: this.x.url,
      X_API_BEARER_TOKEN: this.x.bearerToken,
      X_API_TIMEOUT_MS: 2000,
      METRICS_WORKER_LOCK_DURATION_MS: 5000,
      METRICS_WORKER_STALLED_INTERVAL_MS: 2000,
      METRICS_WORKER_RATE_LIMIT_MARGIN_MS: 50,
      METRICS_WORKER_RATE_LIMIT_BACKOFF_MIN_MS: 300,
      METRICS_WORKER_RATE_LIMIT_BACKOFF_MAX_MS: 2000,
      METRICS_WORKER_PARTIAL_RETRY_DELAY_MS: 200,
    };
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
    return this.eventsWhere((e) => e.data.batchId === batchId);
  }

  async waitForEvent(batchId: string, timeoutMs = 20_000): Promise<ReceivedEvent> {
    return this.waitForEventWhere((e) => e.data.batchId === batchId, timeoutMs, `metrics.fetched of batch ${batchId}`);
  }

  /** How many metrics.fetched the stream holds for a batch. */
  async storedEventCount(batchId: string): Promise<number> {
    return this.storedEventsWhere((e) => e?.type === 'metrics.fetched' && e.data.batchId === batchId);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.x.close();
  }
}
