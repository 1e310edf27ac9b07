import { env, loadConfig, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { shutdownGraceMs as workerShutdownGraceMs, workerConfigShape } from '@clipit/worker-kit';
import { z } from 'zod';

/** Every variable the metrics worker reads, with a default that works on one machine. Validated once at boot. */
export const metricsWorkerConfigShape = {
  ...sharedConfigShape,
  // HTTP serves only /health/live, /health/ready and /metrics; the queue worker's budgets are the kit's.
  // Two lookups of up to 100 posts at a time per process (X's rate limit, not CPU, bounds them).
  ...workerConfigShape('METRICS_WORKER', { httpPort: 8109, concurrency: 2, drainSeconds: 10 }),
  /** Where X's API v2 answers (no trailing slash); the tests and the benchmark point it at a stand-in. */
  X_API_BASE_URL: env.url('https://api.x.com', ['https', 'http']).transform((v) => v.replace(/\/+$/, '')),
  /**
   * The X app's bearer token (app-only auth). No default: a worker without one refuses to start (the
   * check is at start-up, not here, so the defaults still load for the configuration tests).
   */
  X_API_BEARER_TOKEN: z.string().min(1).optional(),
  /** How long one lookup of up to 100 posts may take before it counts as failed (and the job is retried). */
  X_API_TIMEOUT_MS: env.int(10_000, 100),
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
};

export type MetricsWorkerConfig = ConfigOf<typeof metricsWorkerConfigShape>;

export function loadMetricsWorkerConfig(source: NodeJS.ProcessEnv = process.env): MetricsWorkerConfig {
  return loadConfig(metricsWorkerConfigShape, source);
}

/** How long the process entry waits for close() after SIGTERM: the drain (METRICS_WORKER_DRAIN_SECONDS) plus ten seconds. */
export function shutdownGraceMs(source: NodeJS.ProcessEnv = process.env): number {
  return workerShutdownGraceMs(metricsWorkerConfigShape, 'METRICS_WORKER', source);
}
