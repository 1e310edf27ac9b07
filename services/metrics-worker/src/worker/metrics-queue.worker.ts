import { REFRESH_METRICS_JOB, refreshMetricsJobSchema, type RefreshMetricsJob } from '@clipit/contracts';
import { createMetricsQueue, METRICS_QUEUE, REFRESH_METRICS_JOB_OPTIONS, type MetricsQueue } from '@clipit/media-queue';
import { QueueWorker, type JobDone, type JobEnding, type QueueWorkerOptions } from '@clipit/worker-kit';
import type { Job } from 'bullmq';
import type { FollowUpQueue, QueuePause, RateLimitPause } from '../ports.js';
import {
  PostsUnansweredError,
  RateLimitedError,
  XRejectedError,
  type RefreshMetricsHandler,
  type RefreshResult,
} from '../jobs/refresh-metrics.handler.js';
import { metricsJobs, recordRateLimitWait } from '../metrics.js';

// The backoff of a decided outcome NATS did not take is the kit's (its spec is kept beside this worker).
export { publishRetryDelayMs } from '@clipit/worker-kit';

export type MetricsQueueWorkerOptions = QueueWorkerOptions;

// BullMQ honours a queue-wide rate limit (Queue.rateLimit, what QueuePause sets) only in workers that have
// a limiter; this one is never reached by itself (X's headers decide when to pause, not a count of ours).
const NEVER_REACHED_LIMITER = { max: 1_000_000, duration: 1000 };

/**
 * The metrics queue's worker: refresh-metrics jobs go to the handler. X's rate limit pauses the whole queue
 * (every process: BullMQ's global rate limit in Redis) and puts the job back without using an attempt; X
 * refusing the request, or leaving posts out too often, fails the job; X's 5xx and timeouts are retried with
 * the job's backoff. What every worker does alike (a decided batch whose event NATS did not take is delayed
 * and published again, X not asked again; shutdown drain; Redis outages) is the kit's QueueWorker.
 */
export class MetricsQueueWorker extends QueueWorker<RefreshMetricsJob, RefreshResult> implements QueuePause, FollowUpQueue {
  /** The producer's handle: the queue-wide rate limit and the follow-up jobs. */
  private readonly queue: MetricsQueue;
  private handler: RefreshMetricsHandler | undefined;

  constructor(opts: MetricsQueueWorkerOptions) {
    super(opts, { queue: METRICS_QUEUE, label: 'metrics queue worker', metrics: metricsJobs, limiter: NEVER_REACHED_LIMITER });
    this.queue = createMetricsQueue({ connection: opts.connection, prefix: opts.redisKeyPrefix, logger: opts.logger });
  }

  /** The job logic; set once (the handler needs this worker as its QueuePause and FollowUpQueue). */
  use(handler: RefreshMetricsHandler): void {
    this.handler = handler;
  }

  override async start(): Promise<void> {
    if (!this.handler) throw new Error('MetricsQueueWorker.start() before use(handler)');
    await super.start();
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

  protected async runJob(job: Job<RefreshMetricsJob, RefreshResult>, signal: AbortSignal): Promise<JobDone<RefreshResult>> {
    return { label: 'fetched', result: await this.handler!.process(job, signal) };
  }

  protected override endingOf(err: unknown): JobEnding | undefined {
    // The queue is paused already (QueuePause): back to the waiting list, first in line, no attempt used.
    if (err instanceof RateLimitedError) return { label: 'rate-limited', as: 'rate-limited' };
    if (err instanceof XRejectedError)
      return {
        label: 'refused',
        as: 'failed',
        log: { msg: 'X refused the lookup (is X_API_BEARER_TOKEN right?): the job fails; the scheduler queues its posts again when due' },
      };
    if (err instanceof PostsUnansweredError)
      return {
        label: 'gave-up',
        as: 'failed',
        log: {
          msg: 'X kept leaving posts out of its answers: the job fails naming them; the scheduler queues them again when due',
          details: { posts: err.posts },
        },
      };
    return undefined;
  }

  /** An earlier run may have decided (X answered) before its worker died: state it once; nothing else was lost. */
  protected override failedWithoutRunning(job: Job<RefreshMetricsJob, RefreshResult>): Promise<unknown> {
    return this.handler ? this.handler.finishRecorded(job) : Promise.resolve(undefined);
  }

  protected override async closed(): Promise<void> {
    await this.queue.close();
  }
}
