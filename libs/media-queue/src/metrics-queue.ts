import { REFRESH_METRICS_JOB, refreshMetricsJobSchema, type RefreshMetricsJob } from '@clipit/contracts';
import type { Job, JobsOptions, Queue, RedisOptions } from 'bullmq';
import type { ConnectionLogger } from './connection.js';
import { createJobQueue, mediaQueuePrefix } from './job-queue.js';

/**
 * The BullMQ queue the metrics worker consumes. Its keys follow the media queue's rule:
 * `<REDIS_KEY_PREFIX>bull:metrics:*` ({@link mediaQueuePrefix} of the deployment's prefix).
 */
export const METRICS_QUEUE = 'metrics';

/** The Redis key prefix both ends of the metrics queue pass to BullMQ (the media queue's rule). */
export const metricsQueuePrefix = mediaQueuePrefix;

/**
 * How a refresh-metrics job is retried and kept. A failure that may pass (X's 5xx, a timeout, NATS
 * down) is retried with exponential backoff; X's rate limit is not a failure (the worker waits for
 * the window to reset without using an attempt). Finished jobs are kept briefly and bounded: a batch
 * is queued again only when its posts are due again, under a new batch id. A finished job still holds
 * the event it stated (up to about 60 KB for 100 posts) in its progress, so at most 500 are kept
 * (about 30 MB of Redis at worst).
 */
export const REFRESH_METRICS_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { age: 3600, count: 500 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5_000 },
} as const satisfies JobsOptions;

export type MetricsQueue = Queue<RefreshMetricsJob, unknown, typeof REFRESH_METRICS_JOB>;

export interface MetricsQueueOptions {
  /** Where Redis is: the service kit's redisConnectionOptions(config) (REDIS_URL, or its sentinels). */
  connection: RedisOptions;
  /** The deployment's REDIS_KEY_PREFIX (e.g. `clipit:`). */
  prefix: string;
  /** Where a Redis outage is reported (once when it starts, once when it ends). */
  logger?: ConnectionLogger;
}

/** The producer's handle on the metrics queue (the submissions service's scheduler). Close it on shutdown. */
export function createMetricsQueue(opts: MetricsQueueOptions): MetricsQueue {
  return createJobQueue<RefreshMetricsJob, typeof REFRESH_METRICS_JOB>({
    ...opts,
    queue: METRICS_QUEUE,
    defaultJobOptions: REFRESH_METRICS_JOB_OPTIONS,
  });
}

/**
 * Queues a batch of posts for the metrics worker. The data is checked against refreshMetricsJobSchema
 * (a ZodError names the bad field); the job id is the batch id, so queueing the same batch again while
 * its job exists adds nothing.
 */
export async function enqueueRefreshMetrics(
  queue: MetricsQueue,
  job: RefreshMetricsJob,
): Promise<Job<RefreshMetricsJob, unknown, typeof REFRESH_METRICS_JOB>> {
  const data = refreshMetricsJobSchema.parse(job);
  return queue.add(REFRESH_METRICS_JOB, data, { ...REFRESH_METRICS_JOB_OPTIONS, jobId: data.batchId });
}
