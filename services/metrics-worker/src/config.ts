import { env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { z } from 'zod';

/** Every variable the metrics worker reads, with a default that works on one machine. Validated once at boot. */
export const metricsWorkerConfigShape = {
  ...sharedConfigShape,
  // HTTP serves only /health/live, /health/ready and /metrics.
  ...serverConfigShape('METRICS_WORKER', { httpPort: 8109 }),
  /** Where X's API v2 answers (no trailing slash); the tests and the benchmark point it at a stand-in. */
  X_API_BASE_URL: env.url('https://api.x.com', ['https', 'http']).transform((v) => v.replace(/\/+$/, '')),
  /**
   * The X app's bearer token (app-only auth). No default: a worker without one refuses to start (the
   * check is at start-up, not here, so the defaults still load for the configuration tests).
   */
  X_API_BEARER_TOKEN: z.string().min(1).optional(),
  /** How long one lookup of up to 100 posts may take before it counts as failed (and the job is retried). */
  X_API_TIMEOUT_MS: env.int(10_000, 100),
  /** Jobs (lookups of up to 100 posts) one process runs at once. Scale out with more processes. */
  METRICS_WORKER_CONCURRENCY: env.int(2, 1),
  /** A job's lock lives this long unless renewed; a dead worker's job is free again after it. */
  METRICS_WORKER_LOCK_DURATION_MS: env.int(30_000, 1000),
  /** How often a worker looks for jobs whose worker died and puts them back in the queue. */
  METRICS_WORKER_STALLED_INTERVAL_MS: env.int(30_000, 500),
  /** Times a job may lose its worker before BullMQ fails it. */
  METRICS_WORKER_MAX_STALLED_COUNT: env.int(2, 0),
  /** After a failed call to Redis (an outage), how long the worker waits before fetching jobs again (BullMQ's runRetryDelay). */
  METRICS_WORKER_RUN_RETRY_DELAY_MS: env.int(15_000, 10),
  /** On SIGTERM, how long running jobs may go on before they are stopped and put back in the queue. */
  METRICS_WORKER_DRAIN_SECONDS: env.int(10, 0),
  /**
   * Added to X's x-rate-limit-reset before the queue takes jobs again: the reset is in whole seconds
   * and X's clock is not ours.
   */
  METRICS_WORKER_RATE_LIMIT_MARGIN_MS: env.int(1000, 0),
  /** A 429 without x-rate-limit-reset pauses every worker this long, doubling on each such 429 in a row… */
  METRICS_WORKER_RATE_LIMIT_BACKOFF_MIN_MS: env.int(5000, 10),
  /** …up to this long. */
  METRICS_WORKER_RATE_LIMIT_BACKOFF_MAX_MS: env.int(900_000, 10),
  /** Posts X left out of an answer (neither found nor an error) go in a new job that runs this much later. */
  METRICS_WORKER_PARTIAL_RETRY_DELAY_MS: env.int(60_000, 0),
  /** How many times in a row left-out posts are queued again before the job fails, naming them. */
  METRICS_WORKER_PARTIAL_RETRY_MAX: env.int(5, 0),
  /** How long publishing a job's metrics.fetched waits for JetStream's acknowledgement. */
  METRICS_WORKER_PUBLISH_TIMEOUT_MS: env.int(5000, 100),
  /**
   * A fetched batch NATS did not take is published again after this long, doubling up to
   * METRICS_WORKER_PUBLISH_RETRY_MAX_MS, for as long as NATS is down; X is not asked again, no attempt is used.
   */
  METRICS_WORKER_PUBLISH_RETRY_MIN_MS: env.int(2000, 10),
  METRICS_WORKER_PUBLISH_RETRY_MAX_MS: env.int(30_000, 10),
};

export type MetricsWorkerConfig = ConfigOf<typeof metricsWorkerConfigShape>;

export function loadMetricsWorkerConfig(source: NodeJS.ProcessEnv = process.env): MetricsWorkerConfig {
  return loadConfig(metricsWorkerConfigShape, source);
}

/** How long the process entry waits for close() after SIGTERM: the drain, plus time to put jobs back and close connections. */
export function shutdownGraceMs(source: NodeJS.ProcessEnv = process.env): number {
  let drainSeconds = metricsWorkerConfigShape.METRICS_WORKER_DRAIN_SECONDS.parse(undefined);
  try {
    drainSeconds = loadMetricsWorkerConfig(source).METRICS_WORKER_DRAIN_SECONDS;
  } catch {
    // A bad configuration stops start-up with its own message; the default grace is fine meanwhile.
  }
  return (drainSeconds + 10) * 1000;
}
