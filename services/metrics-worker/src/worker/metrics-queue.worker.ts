import { hostname } from 'node:os';
import { REFRESH_METRICS_JOB, refreshMetricsJobSchema, type RefreshMetricsJob } from '@clipit/contracts';
import {
  createMetricsQueue,
  METRICS_QUEUE,
  metricsQueuePrefix,
  redisRetryStrategy,
  REFRESH_METRICS_JOB_OPTIONS,
  reportRedisOutages,
  type MetricsQueue,
} from '@clipit/media-queue';
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { FollowUpQueue, QueuePause, RateLimitPause } from '../ports.js';
import {
  InvalidJobError,
  PostsUnansweredError,
  PublishFailedError,
  RateLimitedError,
  XRejectedError,
  type RefreshMetricsHandler,
  type RefreshResult,
} from '../jobs/refresh-metrics.handler.js';
import { recordJob, recordRateLimitWait } from '../metrics.js';

export interface MetricsQueueWorkerOptions {
  redisUrl: string;
  /** The deployment's REDIS_KEY_PREFIX; the queue's keys are under metricsQueuePrefix() of it, as the producer's. */
  redisKeyPrefix: string;
  logger: Logger;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  /** Wait before fetching again after Redis failed a call (BullMQ's runRetryDelay). */
  runRetryDelayMs?: number;
  publishRetryMinMs: number;
  publishRetryMaxMs: number;
}

/** The wait before publishing a decided event again after `failures` failed publications: min, 2·min, … capped at max. */
export function publishRetryDelayMs(failures: number, minMs: number, maxMs: number): number {
  return Math.min(maxMs, minMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

// BullMQ fails a job without running it when its workers kept dying on it.
const FAILED_WITHOUT_RUNNING = /stalled more than allowable limit|started more than allowable limit/;

// BullMQ honours a queue-wide rate limit (Queue.rateLimit, what QueuePause sets) only in workers that have
// a limiter; this one is never reached by itself (X's headers decide when to pause, not a count of ours).
const NEVER_REACHED_LIMITER = { max: 1_000_000, duration: 1000 };

type RefreshJob = Job<RefreshMetricsJob, RefreshResult, typeof REFRESH_METRICS_JOB>;

/**
 * The BullMQ side of the worker: takes refresh-metrics jobs from the metrics queue and hands them to the
 * handler. X's rate limit pauses the whole queue (every process: BullMQ's global rate limit in Redis) and
 * puts the job back without using an attempt; X's 5xx and timeouts are retried with the job's backoff;
 * a decided batch whose event NATS did not take is delayed and published again, X not asked again.
 */
export class MetricsQueueWorker implements QueuePause, FollowUpQueue {
  private readonly worker: Worker<RefreshMetricsJob, RefreshResult, typeof REFRESH_METRICS_JOB>;
  /** The producer's handle: the queue-wide rate limit and the follow-up jobs. */
  private readonly queue: MetricsQueue;
  private readonly shutdown = new AbortController();
  private handler: RefreshMetricsHandler | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly opts: MetricsQueueWorkerOptions) {
    this.queue = createMetricsQueue({ redisUrl: opts.redisUrl, prefix: opts.redisKeyPrefix, logger: opts.logger });
    this.worker = new Worker<RefreshMetricsJob, RefreshResult, typeof REFRESH_METRICS_JOB>(
      METRICS_QUEUE,
      (job, token, signal) => this.run(job, token, signal),
      {
        // Reconnects within about a second of Redis answering again, not on BullMQ's schedule that grows to 20 s.
        connection: { url: opts.redisUrl, maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy },
        prefix: metricsQueuePrefix(opts.redisKeyPrefix),
        name: `${hostname()}:${process.pid}`,
        concurrency: opts.concurrency,
        lockDuration: opts.lockDurationMs,
        stalledInterval: opts.stalledIntervalMs,
        maxStalledCount: opts.maxStalledCount,
        ...(opts.runRetryDelayMs === undefined ? {} : { runRetryDelay: opts.runRetryDelayMs }),
        limiter: NEVER_REACHED_LIMITER,
        autorun: false,
      },
    );
    reportRedisOutages(this.worker, opts.logger, 'metrics queue worker');
    this.worker.on('failed', (job, err) => {
      if (!job || !this.handler || !FAILED_WITHOUT_RUNNING.test(err.message)) return;
      // An earlier run may have decided (X answered) before its worker died: state it once; nothing else was lost.
      void this.handler
        .finishRecorded(job)
        .catch((e: unknown) =>
          opts.logger.error({ err: e, jobId: job.id }, 'could not state the decided outcome of a failed job (kept in the job)'),
        );
    });
  }

  /** The job logic; set once (the handler needs this worker as its QueuePause and FollowUpQueue). */
  use(handler: RefreshMetricsHandler): void {
    this.handler = handler;
  }

  async start(): Promise<void> {
    if (!this.handler) throw new Error('MetricsQueueWorker.start() before use(handler)');
    void this.worker.run().catch((err: unknown) => this.opts.logger.error({ err }, 'metrics queue: worker stopped'));
    await this.worker.waitUntilReady();
  }

  isRunning(): boolean {
    return this.worker.isRunning();
  }

  /** Every worker of the queue (all processes) takes no job for `waitMs`. */
  async pause(pause: RateLimitPause): Promise<void> {
    recordRateLimitWait(pause.reason, pause.waitMs);
    await this.queue.rateLimit(pause.waitMs);
  }

  async add(job: RefreshMetricsJob, delayMs: number): Promise<void> {
    const data = refreshMetricsJobSchema.parse(job);
    // The job id is the follow-up's batch id, derived from the job's: queued again after a crash, it is added once.
    await this.queue.add(REFRESH_METRICS_JOB, data, { ...REFRESH_METRICS_JOB_OPTIONS, jobId: data.batchId, delay: delayMs });
  }

  /** Stops taking jobs, waits up to `drainMs` for running ones, puts the rest back, disconnects. Idempotent. */
  close(drainMs: number): Promise<void> {
    this.closing ??= (async () => {
      const timer = setTimeout(() => this.shutdown.abort(new Error('shutting down')), drainMs);
      try {
        await this.worker.close();
      } finally {
        clearTimeout(timer);
        await this.queue.close();
      }
    })();
    return this.closing;
  }

  private async run(job: RefreshJob, token: string | undefined, signal: AbortSignal | undefined): Promise<RefreshResult> {
    const jobSignal = signal ? AbortSignal.any([this.shutdown.signal, signal]) : this.shutdown.signal;
    try {
      const result = await this.handler!.process(job, jobSignal);
      recordJob('fetched');
      return result;
    } catch (err) {
      if (err instanceof RateLimitedError) {
        // The queue is paused already (QueuePause): back to the waiting list, first in line, no attempt used.
        recordJob('rate-limited');
        throw Worker.RateLimitError();
      }
      if (err instanceof PublishFailedError && token) {
        recordJob('publish-delayed');
        const delayMs = publishRetryDelayMs(err.failures, this.opts.publishRetryMinMs, this.opts.publishRetryMaxMs);
        await job.moveToDelayed(Date.now() + delayMs, token);
        this.opts.logger.warn(
          { jobId: job.id, eventId: err.event.id, publishFailures: err.failures, retryInMs: delayMs, err: err.cause },
          'fetched batch not published (NATS unavailable?): trying again later, without asking X again or using up an attempt',
        );
        throw new DelayedError();
      }
      if (err instanceof InvalidJobError) {
        recordJob('rejected');
        this.opts.logger.error({ jobId: job.id, err }, 'rejected a job with unusable data');
        throw new UnrecoverableError(err.message);
      }
      if (err instanceof XRejectedError) {
        recordJob('refused');
        this.opts.logger.error(
          { jobId: job.id, err },
          'X refused the lookup (is X_API_BEARER_TOKEN right?): the job fails; the scheduler queues its posts again when due',
        );
        throw new UnrecoverableError(err.message);
      }
      if (err instanceof PostsUnansweredError) {
        recordJob('gave-up');
        this.opts.logger.error(
          { jobId: job.id, posts: err.posts },
          'X kept leaving posts out of its answers: the job fails naming them; the scheduler queues them again when due',
        );
        throw new UnrecoverableError(err.message);
      }
      if (this.shutdown.signal.aborted && token) {
        recordJob('requeued');
        await job.moveToWait(token);
        this.opts.logger.info({ jobId: job.id }, 'job put back in the queue on shutdown');
        throw new WaitingError();
      }
      recordJob('retried');
      this.opts.logger.warn({ jobId: job.id, attempt: job.attemptsMade + 1, err }, 'job failed; BullMQ retries it with backoff');
      throw err;
    }
  }
}
