import { hostname } from 'node:os';
import { PROCESS_VIDEO_JOB, type ProcessVideoJob } from '@clipit/contracts';
import { MEDIA_QUEUE, mediaQueuePrefix, redisRetryStrategy, reportRedisOutages } from '@clipit/media-queue';
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { recordJob, type JobResultLabel } from '../metrics.js';
import { InvalidJobError, PublishFailedError, type ProcessVideoHandler } from '../jobs/process-video.handler.js';

/** What a processed job leaves as its BullMQ return value (the event carries the rest). */
export interface ProcessVideoResult {
  eventId: string;
  playbackId: string;
}

export interface MediaQueueWorkerOptions {
  redisUrl: string;
  /** The deployment's REDIS_KEY_PREFIX; the queue's keys are under mediaQueuePrefix() of it, as the producer's. */
  redisKeyPrefix: string;
  handler: ProcessVideoHandler;
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

/** The wait before publishing a decided event again after `failures` failed publications: min, 2·min, 4·min, … capped at max. */
export function publishRetryDelayMs(failures: number, minMs: number, maxMs: number): number {
  return Math.min(maxMs, minMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

// BullMQ fails a job without running it when its workers kept dying on it (see ProcessVideoHandler.giveUp).
const FAILED_WITHOUT_RUNNING = /stalled more than allowable limit|started more than allowable limit/;

type MediaJob = Job<ProcessVideoJob, ProcessVideoResult, typeof PROCESS_VIDEO_JOB>;

/**
 * The BullMQ side of the worker: takes process-video jobs from the media queue and hands them to
 * the handler. A verdict on the file fails the job at once (UnrecoverableError, no retry); other
 * errors are retried with the job's backoff. On close, running jobs get `drainMs` to finish; then
 * their ffmpeg is stopped and they go back to the queue without using up an attempt.
 *
 * A decided outcome whose event JetStream did not take (NATS down) is not a failure of the job: the
 * job is delayed (capped backoff, no attempt used, the event kept in its progress) and tried again
 * until JetStream stores the event, however long the outage. Only then does the job complete (or
 * fail, for a refusal) and the upload go.
 */
export class MediaQueueWorker {
  private readonly worker: Worker<ProcessVideoJob, ProcessVideoResult, typeof PROCESS_VIDEO_JOB>;
  private readonly shutdown = new AbortController();
  private closing: Promise<void> | undefined;

  constructor(private readonly opts: MediaQueueWorkerOptions) {
    this.worker = new Worker<ProcessVideoJob, ProcessVideoResult, typeof PROCESS_VIDEO_JOB>(
      MEDIA_QUEUE,
      (job, token, signal) => this.run(job, token, signal),
      {
        // Reconnects within about a second of Redis answering again, not on BullMQ's schedule that grows to 20 s.
        connection: { url: opts.redisUrl, maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy },
        prefix: mediaQueuePrefix(opts.redisKeyPrefix),
        name: `${hostname()}:${process.pid}`,
        concurrency: opts.concurrency,
        lockDuration: opts.lockDurationMs,
        stalledInterval: opts.stalledIntervalMs,
        maxStalledCount: opts.maxStalledCount,
        ...(opts.runRetryDelayMs === undefined ? {} : { runRetryDelay: opts.runRetryDelayMs }),
        autorun: false,
      },
    );
    // Its connections' failures: once when Redis goes away and once when it is back, not per reconnect attempt.
    reportRedisOutages(this.worker, opts.logger, 'media queue worker');
    this.worker.on('failed', (job, err) => {
      if (!job || !FAILED_WITHOUT_RUNNING.test(err.message)) return;
      // When NATS is down this publishes once and fails; the outcome stays in the job's progress and
      // submissions' reconciler retries the failed job later, whose next run states it.
      void opts.handler
        .giveUp(job, err.message)
        .catch((e: unknown) =>
          opts.logger.error(
            { err: e, jobId: job.id },
            'could not state the outcome of a failed job (kept in the job for the reconciler to re-drive)',
          ),
        );
    });
  }

  /** Connects and starts taking jobs; resolves once the worker is connected. */
  async start(): Promise<void> {
    void this.worker.run().catch((err: unknown) => this.opts.logger.error({ err }, 'media queue: worker stopped'));
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
      }
    })();
    return this.closing;
  }

  private async run(job: MediaJob, token: string | undefined, signal: AbortSignal | undefined): Promise<ProcessVideoResult> {
    const started = process.hrtime.bigint();
    const done = (result: JobResultLabel) => recordJob(result, Number(process.hrtime.bigint() - started) / 1e9);
    const jobSignal = signal ? AbortSignal.any([this.shutdown.signal, signal]) : this.shutdown.signal;
    try {
      const event = await this.opts.handler.process(job, jobSignal);
      if (event.type === 'media.processed') {
        done('processed');
        return { eventId: event.id, playbackId: event.data.playbackId };
      }
      done(event.data.code);
      // Stated and final: the job fails now, never retried.
      throw new UnrecoverableError(`${event.data.code}: ${event.data.reason}`);
    } catch (err) {
      if (err instanceof UnrecoverableError) throw err;
      if (err instanceof PublishFailedError && token) {
        // Decided, not published: keep the job (and its verdict) and publish again later, deciding nothing again.
        done('publish-delayed');
        const delayMs = publishRetryDelayMs(err.failures, this.opts.publishRetryMinMs, this.opts.publishRetryMaxMs);
        await job.moveToDelayed(Date.now() + delayMs, token);
        this.opts.logger.warn(
          { jobId: job.id, eventId: err.event.id, type: err.event.type, publishFailures: err.failures, retryInMs: delayMs, err: err.cause },
          'decided outcome not published (NATS unavailable?): trying again later, without using up an attempt',
        );
        throw new DelayedError();
      }
      if (err instanceof InvalidJobError) {
        done('rejected');
        this.opts.logger.error({ jobId: job.id, err }, 'rejected a job with unusable data');
        throw new UnrecoverableError(err.message);
      }
      if (this.shutdown.signal.aborted && token) {
        // Stopped by our own shutdown: back to the queue for another worker, no attempt used.
        done('requeued');
        await job.moveToWait(token);
        this.opts.logger.info({ jobId: job.id }, 'job put back in the queue on shutdown');
        throw new WaitingError();
      }
      done('retried');
      this.opts.logger.warn({ jobId: job.id, attempt: job.attemptsMade + 1, err }, 'job failed; BullMQ retries it with backoff');
      throw err;
    }
  }
}
