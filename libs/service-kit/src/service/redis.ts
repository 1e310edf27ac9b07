import { Redis, type RedisOptions } from 'ioredis';
import { redisCheck } from '../health/checks.js';
import { resource, type ServiceResource } from './bootstrap.js';
import { redisConnectionOptions, type RedisConnectionConfig } from './redis-connection.js';

/** Reconnect attempt `attempt` (1-based) after 100 ms more each time, up to once a second: back soon after Redis is. */
export function redisRetryDelay(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}

/**
 * A Redis connection as a resource, provided under `token` and checked by readiness. With
 * `tolerateOutage`, start-up does not wait for Redis and readiness reports it as `degraded` (200) while
 * it is away, since the service answers without it (the connection keeps trying); otherwise start-up fails when Redis does not answer. It reconnects within about a second
 * of Redis answering again, and an outage is logged once when the connection drops and once when it is
 * back (ioredis would otherwise report every failed retry). Redis is where redisConnectionOptions says: REDIS_URL,
 * or the master the sentinels name (after a failover, the reconnect asks them again).
 */
export function redisResource<C extends RedisConnectionConfig>(
  token: symbol,
  options: RedisOptions & { tolerateOutage?: boolean } = {},
): ServiceResource<C> {
  const { tolerateOutage = false, ...redisOptions } = options;
  return resource<C, Redis>(
    'redis',
    token,
    async ({ config, logger }) => {
      const redis = new Redis({
        ...redisConnectionOptions(config),
        maxRetriesPerRequest: 1,
        retryStrategy: redisRetryDelay,
        ...redisOptions,
        lazyConnect: true,
      });
      let down = false;
      redis.on('error', (err: Error) => {
        if (down) return;
        down = true;
        logger.warn({ err }, 'Redis connection lost; reconnecting');
      });
      redis.on('ready', () => {
        if (!down) return;
        down = false;
        logger.info('Redis connection back');
      });
      try {
        await redis.connect();
      } catch (err) {
        if (!tolerateOutage) {
          redis.disconnect();
          throw err;
        }
      }
      return redis;
    },
    {
      close: (redis) => redis.quit().catch(() => redis.disconnect()),
      // A service that starts without Redis also serves without it: an outage is reported (degraded), not a reason to leave traffic.
      health: (redis) => [{ ...redisCheck(redis), optional: tolerateOutage }],
    },
  );
}
