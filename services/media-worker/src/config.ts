import { env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { mediaToolsConfigShape } from '@clipit/media';
import { storageConfigShape } from '@clipit/storage';
import { z } from 'zod';

/** Every variable the media worker reads, with a default that works on one machine. Validated once at boot. */
export const mediaWorkerConfigShape = {
  ...sharedConfigShape,
  ...storageConfigShape,
  ...mediaToolsConfigShape,
  // HTTP serves only /health/live, /health/ready and /metrics.
  ...serverConfigShape('MEDIA_WORKER', { httpPort: 8103 }),
  /** Jobs one process runs at once; each runs one ffmpeg at a time. Scale out with more processes. */
  MEDIA_WORKER_CONCURRENCY: env.int(1, 1),
  /** A job's lock lives this long unless renewed (every half of it while the job runs); a dead worker's job is free again after it. */
  MEDIA_WORKER_LOCK_DURATION_MS: env.int(30_000, 1000),
  /** How often a worker looks for jobs whose lock expired (their worker died) and puts them back in the queue. */
  MEDIA_WORKER_STALLED_INTERVAL_MS: env.int(30_000, 500),
  /** Times a job may be found stalled (its worker died) before it fails as processing-error. */
  MEDIA_WORKER_MAX_STALLED_COUNT: env.int(2, 0),
  /** After a failed call to Redis (an outage), how long the worker waits before fetching jobs again (BullMQ's runRetryDelay). */
  MEDIA_WORKER_RUN_RETRY_DELAY_MS: env.int(15_000, 10),
  /** Scratch folder for the source and the outputs of the running jobs; empty = the system's temporary folder. */
  MEDIA_WORKER_TMP_DIR: z.string().min(1).optional(),
  /** Longest ffmpeg may take to make the poster or the web MP4 of one video. */
  MEDIA_WORKER_TRANSCODE_TIMEOUT_SECONDS: env.int(600, 10),
  /**
   * On SIGTERM, how long running jobs may go on before their ffmpeg is stopped and they are put back
   * in the queue (for another worker, without using up an attempt).
   */
  MEDIA_WORKER_DRAIN_SECONDS: env.int(25, 0),
  /** How long publishing a job's outcome waits for JetStream's acknowledgement before it counts as failed. */
  MEDIA_WORKER_PUBLISH_TIMEOUT_MS: env.int(5000, 100),
  /**
   * A job whose outcome could not be published (NATS down) waits this long before publishing it again,
   * doubling on each failure up to MEDIA_WORKER_PUBLISH_RETRY_MAX_MS, for as long as NATS stays down;
   * ffmpeg does not run again and no attempt is used up.
   */
  MEDIA_WORKER_PUBLISH_RETRY_MIN_MS: env.int(2000, 10),
  MEDIA_WORKER_PUBLISH_RETRY_MAX_MS: env.int(30_000, 10),
};

export type MediaWorkerConfig = ConfigOf<typeof mediaWorkerConfigShape>;

export function loadMediaWorkerConfig(source: NodeJS.ProcessEnv = process.env): MediaWorkerConfig {
  return loadConfig(mediaWorkerConfigShape, source);
}

/**
 * How long the process entry waits for close() after SIGTERM: the drain, plus time to put jobs back
 * and close connections. Orchestrators must wait longer still (k8s terminationGracePeriodSeconds).
 */
export function shutdownGraceMs(source: NodeJS.ProcessEnv = process.env): number {
  let drainSeconds = mediaWorkerConfigShape.MEDIA_WORKER_DRAIN_SECONDS.parse(undefined);
  try {
    drainSeconds = loadMediaWorkerConfig(source).MEDIA_WORKER_DRAIN_SECONDS;
  } catch {
    // A bad configuration stops start-up with its own message; the default grace is fine meanwhile.
  }
  return (drainSeconds + 10) * 1000;
}
