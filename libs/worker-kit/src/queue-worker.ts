import { hostname } from 'node:os';
import { mediaQueuePrefix, redisRetryStrategy, reportRedisOutages } from '@clipit/media-queue';
import { jobTraceFields } from '@clipit/contracts';
import { carriedTraceContext, failSpan } from '@clipit/service-kit';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job, type RedisOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { JobMetrics } from './metrics.js';
import { InvalidJobError, PublishFailedError } from './outcome.js';

/** What a queue worker is given: where its queue is, and its budgets (workerSettings of its configuration). */
export interface QueueWorkerOptions {
  /** Where Redis is: the service kit's redisConnectionOptions(config) (workerSettings gives it). */
  connection: RedisOptions;
  /** The deployment's REDIS_KEY_PREFIX; the queue's keys are under the queues' key rule of it, as the producer's. */
  redisKeyPrefix: string;
  logger: Logger;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  /** Wait before fetching again after Redis failed a call (BullMQ's runRetryDelay). */
  runRetryDelayMs?: number;
  /** Backoff between publications of a decided event that JetStream did not take: doubles from min up to max. */
  publishRetryMinMs: number;
  publishRetryMaxMs: number;
}

/** What is fixed for a kind of worker: its queue, its name in logs, its job metrics, BullMQ's limiter if it needs one. */
export interface QueueDefinition {
  /** The BullMQ queue's name (`media`, `metrics`). */
  queue: string;
  /** How its logs name it: `media queue worker` gives `media queue worker: Redis connection lost; reconnecting`. */
  label: string;
  metrics: JobMetrics;
  /**
   * BullMQ honours a queue-wide rate limit (Queue.rateLimit) only in workers that have a limiter; a worker
   * that pauses the queue itself gives one here.
   */
  limiter?: { max: number; duration: number };
}

/** A job ran to its end: what BullMQ keeps as its return value, and the result it is counted under. */
export interface JobDone<R> {
  result: R;
  label: string;
}

/** How a worker's own error ends a job: it fails for good (no retry), or waits for the queue's rate limit. */
export type JobEnding = { label: string; as: 'failed'; log?: { msg: string; details?: object } } | { label: string; as: 'rate-limited' };

/**
 * The job is over and must not run again: counted under `label`, failed at once (BullMQ's
 * UnrecoverableError), logged as an error when `log` is given. A verdict already stated (a video refused)
 * ends its job this way.
 */
export class JobEndedError extends Error {
  constructor(
    readonly label: string,
    message: string,
    readonly log?: { msg: string; details?: object },
  ) {
    super(message);
    this.name = 'JobEndedError';
  }
}

/** The wait before publishing a decided event again after `failures` failed publications: min, 2·min, 4·min, … capped at max. */
export function publishRetryDelayMs(failures: number, minMs: number, maxMs: number): number {
  return Math.min(maxMs, minMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

// BullMQ fails a job without running it when its workers kept dying on it.
const FAILED_WITHOUT_RUNNING = /stalled more than allowable limit|started more than allowable limit/;

/**
 * The BullMQ side of a worker: takes the jobs of one queue and hands each to `runJob`. What every worker
 * does alike is here; a worker says what a job is (`runJob`), how its own errors end a job (`endingOf`),
 * and what to state for a job BullMQ failed without running it (`failedWithoutRunning`).
 *
 * - A decided outcome whose event JetStream did not take (PublishFailedError) is not a failure of the job:
 *   the job is delayed (capped backoff, no attempt used, the outcome kept in its progress) and tried again
 *   until JetStream stores the event, however long NATS is away.
 * - Unusable job data (InvalidJobError) and a JobEndedError fail the job at once, never retried.
 * - On close, running jobs get the drain time to finish; then their signal aborts and a job stopped by it
 *   goes back to the queue for another worker without using up an attempt.
 * - Everything else is retried with the job's backoff.
 * - Redis outages are logged once each way; the connection is back within about a second of Redis.
 */
export abstract class QueueWorker<D, R> {
  private readonly worker: Worker<D, R>;
  private readonly shutdown = new AbortController();
  private closing: Promise<void> | undefined;
  protected readonly logger: Logger;

  constructor(
    private readonly options: QueueWorkerOptions,
    private readonly definition: QueueDefinition,
  ) {
    this.logger = options.logger;
    this.worker = new Worker<D, R>(definition.queue, (job, token, signal) => this.run(job, token, signal), {
      // Reconnects within about a second of Redis answering again, not on BullMQ's schedule that grows to 20 s.
      connection: { ...options.connection, maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy },
      prefix: mediaQueuePrefix(options.redisKeyPrefix),
      name: `${hostname()}:${process.pid}`,
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: options.maxStalledCount,
      ...(options.runRetryDelayMs === undefined ? {} : { runRetryDelay: options.runRetryDelayMs }),
      ...(definition.limiter ? { limiter: definition.limiter } : {}),
      autorun: false,
    });
    // Its connections' failures: once when Redis goes away and once when it is back, not per reconnect attempt.
    reportRedisOutages(this.worker, options.logger, definition.label);
    this.worker.on('failed', (job, err) => {
      if (!job || !FAILED_WITHOUT_RUNNING.test(err.message)) return;
      // When NATS is down the statement fails once; the outcome stays in the job's progress, and a retry
      // of the failed job (the owner's reconciler, or its next schedule) states it.
      void this.failedWithoutRunning(job, err.message).catch((e: unknown) =>
        options.logger.error({ err: e, jobId: job.id }, 'could not state the outcome of a failed job (kept in the job)'),
      );
    });
  }

  /** One job: its result and how it is counted. Throws to retry, or to end it (see the class comment). */
  protected abstract runJob(job: Job<D, R>, signal: AbortSignal): Promise<JobDone<R>>;

  /** How one of this worker's own errors ends a job; undefined leaves it to the kit (retried). */
  protected endingOf(_err: unknown): JobEnding | undefined {
    return undefined;
  }

  /** For a job BullMQ failed without running it (its workers kept dying): state what it had decided, if anything. */
  protected failedWithoutRunning(_job: Job<D, R>, _why: string): Promise<unknown> {
    return Promise.resolve(undefined);
  }

  /** Connects and starts taking jobs; resolves once the worker is connected. */
  async start(): Promise<void> {
    void this.worker.run().catch((err: unknown) => this.logger.error({ err }, `${this.definition.label} stopped`));
    await this.worker.waitUntilReady();
  }

  isRunning(): boolean {
    return this.worker.isRunning();
  }

  /** Stops taking jobs, waits up to `drainMs` for running ones, puts the rest back, disconnects. Idempotent. */
  close(drainMs: number): Promise<void> {
    this.closing ??= (async () => {
      const timer = setTimeout(() => this.shutdown.abort(new Error('shutting down')), drainMs);
      try {
        await this.worker.close();
      } finally {
        clearTimeout(timer);
        await this.closed();
      }
    })();
    return this.closing;
  }

  /** What a worker closes after its BullMQ worker (a queue handle of its own). */
  protected async closed(): Promise<void> {}

  /**
   * A job whose data carries its producer's trace context runs in a `process <queue>` span under it (ADR
   * 0054), active while the job runs, so the events it builds (media.processed) continue the trace; it ends
   * with the job: done, failed, delayed or handed back. A job without one (a reconciler's re-drive, a
   * scheduler's run, an older job) runs in no span.
   */
  private async run(job: Job<D, R>, token: string | undefined, signal: AbortSignal | undefined): Promise<R> {
    const parent = carriedTraceContext(jobTraceFields(job.data));
    if (!parent) return this.settle(job, token, signal);
    const span = trace.getTracer('@clipit/worker-kit').startSpan(
      `process ${this.definition.queue}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'bullmq',
          'messaging.operation.type': 'process',
          'messaging.destination.name': this.definition.queue,
          ...(job.id === undefined ? {} : { 'messaging.message.id': job.id }),
          'clipit.job.name': job.name,
          'clipit.job.attempt': job.attemptsMade + 1,
        },
      },
      parent,
    );
    try {
      return await context.with(trace.setSpan(parent, span), () => this.settle(job, token, signal, span));
    } finally {
      span.end();
    }
  }

  private async settle(job: Job<D, R>, token: string | undefined, signal: AbortSignal | undefined, span?: Span): Promise<R> {
    const started = process.hrtime.bigint();
    const done = (label: string, failure?: unknown) => {
      this.definition.metrics.record(label, Number(process.hrtime.bigint() - started) / 1e9);
      span?.setAttribute('clipit.outcome', label);
      // A job that failed is an error of its trace; one delayed, handed back or ended by a verdict is not.
      if (span && failure !== undefined) failSpan(span, failure);
    };
    const jobSignal = signal ? AbortSignal.any([this.shutdown.signal, signal]) : this.shutdown.signal;
    try {
      const { result, label } = await this.runJob(job, jobSignal);
      done(label);
      return result;
    } catch (err) {
      if (err instanceof PublishFailedError && token) {
        // Decided, not published: keep the job (and its outcome) and publish again later, deciding nothing again.
        done('publish-delayed');
        const delayMs = publishRetryDelayMs(err.failures, this.options.publishRetryMinMs, this.options.publishRetryMaxMs);
        await job.moveToDelayed(Date.now() + delayMs, token);
        this.logger.warn(
          { jobId: job.id, eventId: err.event.id, type: err.event.type, publishFailures: err.failures, retryInMs: delayMs, err: err.cause },
          'decided outcome not published (NATS unavailable?): trying again later, deciding nothing again and without using up an attempt',
        );
        throw new DelayedError();
      }
      if (err instanceof InvalidJobError) {
        done('rejected', err);
        this.logger.error({ jobId: job.id, err }, 'rejected a job with unusable data');
        throw new UnrecoverableError(err.message);
      }
      if (err instanceof JobEndedError) {
        done(err.label, err.log ? err : undefined);
        if (err.log) this.logger.error({ jobId: job.id, err, ...err.log.details }, err.log.msg);
        throw new UnrecoverableError(err.message);
      }
      const ending = this.endingOf(err);
      if (ending) {
        done(ending.label, ending.as === 'failed' && ending.log ? err : undefined);
        // The queue is paused already (the worker asked for it): back to the waiting list, first in line, no attempt used.
        if (ending.as === 'rate-limited') throw Worker.RateLimitError();
        if (ending.log) this.logger.error({ jobId: job.id, err, ...ending.log.details }, ending.log.msg);
        throw new UnrecoverableError((err as Error).message);
      }
      if (this.shutdown.signal.aborted && token) {
        // Stopped by our own shutdown: back to the queue for another worker, no attempt used.
        done('requeued');
        await job.moveToWait(token);
        this.logger.info({ jobId: job.id }, 'job put back in the queue on shutdown');
        throw new WaitingError();
      }
      done('retried', err);
      this.logger.warn({ jobId: job.id, attempt: job.attemptsMade + 1, err }, 'job failed; BullMQ retries it with backoff');
      throw err;
    }
  }
}
