import type { RedisOptions } from 'bullmq';

/**
 * How the media queue's Redis connections (producer and worker alike) behave through a Redis outage.
 * Where Redis is comes from the caller: the service kit's redisConnectionOptions(config), the one rule
 * every Redis client follows (REDIS_URL, or Sentinel); this package knows no configuration.
 *
 * BullMQ's own reconnect schedule waits max(1 s, e^attempt ms), capped at 20 s: once a second at first,
 * then 3 s, 8 s, 20 s, so after an outage of 10 s or more the queue stays unusable for up to 20 s once
 * Redis is back. {@link redisRetryStrategy} retries 100 ms more each time, up to once a second, so the
 * connection is back within about a second of Redis answering, however long the outage.
 *
 * A BullMQ queue or worker with no 'error' listener prints each failed reconnect to the console as a
 * raw `Error: connect ECONNREFUSED …` line among the JSON logs; {@link reportRedisOutages} listens, and
 * says it once when the connection drops and once when it is back.
 */

/** ioredis `retryStrategy`: the delay before reconnect attempt `attempt` (1-based), 100 ms more each time up to 1 s. */
export function redisRetryStrategy(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}

/**
 * A producer's connection to Redis at `where`: a call fails fast while Redis is away (no offline queue,
 * one retry) instead of waiting in memory, and the connection is back within about a second of Redis
 * answering, or of the sentinels naming a new master.
 */
export function producerConnection(where: RedisOptions): RedisOptions {
  return { ...where, enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: redisRetryStrategy };
}

/** The part of a pino logger the outage report uses. */
export interface ConnectionLogger {
  warn(obj: object, msg: string): void;
  info(msg: string): void;
}

/** A BullMQ Queue or Worker: 'error' for its connections' failures, its backend's 'ready' when connected. */
export interface RedisUser {
  on(event: 'error', listener: (err: Error) => void): unknown;
  getBackend(): { on(event: 'ready', listener: () => void): unknown };
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** An error of the connection itself (refused, reset, closed), as opposed to one of a command or a job. */
export function isConnectionError(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return (typeof code === 'string' && CONNECTION_CODES.has(code)) || /Connection is closed|Stream isn't writeable/.test(err.message);
}

/**
 * Logs the Redis outages of a BullMQ queue or worker: one warning when its connection fails, one info
 * line when it is ready again, nothing for the retries in between. Other errors are logged as they come.
 * Without a logger it only keeps BullMQ from printing the errors.
 */
export function reportRedisOutages(target: RedisUser, log: ConnectionLogger | undefined, what: string): void {
  let down = false;
  target.on('error', (err) => {
    if (!isConnectionError(err)) {
      log?.warn({ err }, `${what}: error`);
      return;
    }
    if (down) return;
    down = true;
    log?.warn({ err }, `${what}: Redis connection lost; reconnecting`);
  });
  target.getBackend().on('ready', () => {
    if (!down) return;
    down = false;
    log?.info(`${what}: Redis connection back`);
  });
}
