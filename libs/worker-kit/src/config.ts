import {
  env,
  loadConfig,
  redisConnectionOptions,
  serverConfigShape,
  type RedisConnectionConfig,
  type RedisConnectionOptions,
} from '@clipit/service-kit';
import type { z } from 'zod';

// The variables every queue worker reads, named after its prefix (MEDIA_WORKER_CONCURRENCY, …) so that
// every worker spells them alike, the fault suite's time profile can scale them by name, and the kit
// finds them. Their meaning is written once, here and in deploy/.env.example.

type Keys<P extends string, S extends string> = `${P}_${S}`;

/** What differs between workers by nature: the HTTP port, how many jobs a process runs, how long they may drain. */
export interface WorkerDefaults {
  httpPort: number;
  concurrency: number;
  drainSeconds: number;
}

type WorkerVariable =
  | 'CONCURRENCY'
  | 'LOCK_DURATION_MS'
  | 'STALLED_INTERVAL_MS'
  | 'MAX_STALLED_COUNT'
  | 'RUN_RETRY_DELAY_MS'
  | 'DRAIN_SECONDS'
  | 'PUBLISH_TIMEOUT_MS'
  | 'PUBLISH_RETRY_MIN_MS'
  | 'PUBLISH_RETRY_MAX_MS';

type WorkerShape<P extends string> = { [K in Keys<P, WorkerVariable>]: ReturnType<typeof env.int> };

/**
 * `<P>_HTTP_PORT` and `<P>_BIND_HOST` (health and metrics only), and the queue worker's budgets:
 * - `<P>_CONCURRENCY`: jobs one process runs at once; scale out with more processes.
 * - `<P>_LOCK_DURATION_MS`: a job's lock lives this long unless renewed (every half of it while the job runs);
 *   a dead worker's job is free again after it.
 * - `<P>_STALLED_INTERVAL_MS`: how often a worker looks for jobs whose lock expired (their worker died) and
 *   puts them back in the queue.
 * - `<P>_MAX_STALLED_COUNT`: times a job may lose its worker before BullMQ fails it without running it.
 * - `<P>_RUN_RETRY_DELAY_MS`: after a failed call to Redis (an outage), the wait before fetching jobs again
 *   (BullMQ's runRetryDelay).
 * - `<P>_DRAIN_SECONDS`: on SIGTERM, how long running jobs may go on before they are stopped and put back in
 *   the queue (for another worker, without using up an attempt).
 * - `<P>_PUBLISH_TIMEOUT_MS`: how long publishing a job's decided outcome waits for JetStream's acknowledgement.
 * - `<P>_PUBLISH_RETRY_MIN_MS` … `_MAX_MS`: a decided outcome NATS did not take is published again after the
 *   minimum, doubling up to the maximum, for as long as NATS stays down; the job decides nothing again and
 *   uses up no attempt.
 */
export function workerConfigShape<P extends string>(prefix: P, defaults: WorkerDefaults) {
  const budgets = {
    [`${prefix}_CONCURRENCY`]: env.int(defaults.concurrency, 1),
    [`${prefix}_LOCK_DURATION_MS`]: env.int(30_000, 1000),
    [`${prefix}_STALLED_INTERVAL_MS`]: env.int(30_000, 500),
    [`${prefix}_MAX_STALLED_COUNT`]: env.int(2, 0),
    [`${prefix}_RUN_RETRY_DELAY_MS`]: env.int(15_000, 10),
    [`${prefix}_DRAIN_SECONDS`]: env.int(defaults.drainSeconds, 0),
    [`${prefix}_PUBLISH_TIMEOUT_MS`]: env.int(5000, 100),
    [`${prefix}_PUBLISH_RETRY_MIN_MS`]: env.int(2000, 10),
    [`${prefix}_PUBLISH_RETRY_MAX_MS`]: env.int(30_000, 10),
  } as WorkerShape<P>;
  return { ...serverConfigShape(prefix, { httpPort: defaults.httpPort }), ...budgets };
}

/** A worker's budgets read from its configuration, as the queue worker and the publisher take them. */
export interface WorkerSettings {
  /** Where Redis is (redisConnectionOptions: REDIS_URL, or its sentinels). */
  connection: RedisConnectionOptions;
  /** The deployment's REDIS_KEY_PREFIX; the queue's keys go under the queues' key rule of it, as the producer's. */
  redisKeyPrefix: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  runRetryDelayMs: number;
  drainMs: number;
  publishTimeoutMs: number;
  publishRetryMinMs: number;
  /** Never below the minimum, whatever the variables say. */
  publishRetryMaxMs: number;
}

/** The variables' prefix of a worker named `name`: media-worker → MEDIA_WORKER (as the service kit derives it). */
export function workerPrefix(name: string): string {
  return name.toUpperCase().replaceAll('-', '_');
}

function number(config: object, name: string): number {
  const value = (config as Record<string, unknown>)[name];
  if (typeof value !== 'number') throw new Error(`the worker's config shape has no ${name} (see workerConfigShape)`);
  return value;
}

/** Reads `<P>_*` (workerConfigShape) and the REDIS_* variables (sharedConfigShape) from a loaded configuration. */
export function workerSettings(config: RedisConnectionConfig & { REDIS_KEY_PREFIX: string }, prefix: string): WorkerSettings {
  const n = (suffix: WorkerVariable) => number(config, `${prefix}_${suffix}`);
  return {
    connection: redisConnectionOptions(config),
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    concurrency: n('CONCURRENCY'),
    lockDurationMs: n('LOCK_DURATION_MS'),
    stalledIntervalMs: n('STALLED_INTERVAL_MS'),
    maxStalledCount: n('MAX_STALLED_COUNT'),
    runRetryDelayMs: n('RUN_RETRY_DELAY_MS'),
    drainMs: n('DRAIN_SECONDS') * 1000,
    publishTimeoutMs: n('PUBLISH_TIMEOUT_MS'),
    publishRetryMinMs: n('PUBLISH_RETRY_MIN_MS'),
    publishRetryMaxMs: Math.max(n('PUBLISH_RETRY_MAX_MS'), n('PUBLISH_RETRY_MIN_MS')),
  };
}

/**
 * How long a worker's process entry waits for close() after SIGTERM: the drain, plus ten seconds to put
 * jobs back and close connections. Orchestrators must wait longer still (k8s terminationGracePeriodSeconds).
 * A bad configuration stops start-up with its own message; the default drain serves meanwhile.
 */
export function shutdownGraceMs(shape: z.ZodRawShape, prefix: string, source: NodeJS.ProcessEnv = process.env): number {
  const variable = `${prefix}_DRAIN_SECONDS`;
  const drain = shape[variable];
  if (!drain) throw new Error(`the worker's config shape has no ${variable} (see workerConfigShape)`);
  let drainSeconds = (drain as z.ZodType<number>).parse(undefined);
  try {
    drainSeconds = number(loadConfig(shape, source), variable);
  } catch {
    // The default grace.
  }
  return (drainSeconds + 10) * 1000;
}
