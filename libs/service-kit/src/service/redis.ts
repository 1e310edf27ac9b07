import { Redis, type RedisOptions } from 'ioredis';
import { redisCheck } from '../health/checks.js';
import { resource, type ServiceResource } from './bootstrap.js';

/**
 * A Redis connection as a resource, provided under `token` and checked by readiness. With
 * `tolerateOutage`, start-up does not wait for Redis (the connection keeps trying and readiness says
 * it is down); otherwise start-up fails when Redis does not answer.
 */
export function redisResource<C extends { REDIS_URL: string }>(token: symbol, options: RedisOptions & { tolerateOutage?: boolean } = {}): ServiceResource<C> {
  const { tolerateOutage = false, ...redisOptions } = options;
  return resource<C, Redis>(
    'redis',
    token,
    async ({ config }) => {
      const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, ...redisOptions, lazyConnect: true });
      redis.on('error', () => undefined); // an outage shows in readiness; ioredis would log every retry
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
      health: (redis) => [redisCheck(redis)],
    },
  );
}
