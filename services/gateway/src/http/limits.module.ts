import { CONFIG, LOGGER, RateLimiter, REDIS } from '@clipit/service-kit';
import { Global, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { DailyQuota } from '../rate-limit/daily-quota.js';
import { WINDOW_COUNTERS, type WindowCounters } from './limits.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { LIMIT_COUNTERS, RateLimits, type LimitCounters } from './rate-limits.js';

/** The limits' counters in the Redis every replica shares (one limiter per kind of window), for every route module. */
@Global()
@Module({
  providers: [
    {
      provide: LIMIT_COUNTERS,
      useFactory: (redis: Redis, config: GatewayConfig, log: Logger): LimitCounters => ({
        window: Object.fromEntries(
          Object.entries(WINDOW_COUNTERS).map(([kind, of]) => [
            kind,
            new RateLimiter(redis, { keyPrefix: config.REDIS_KEY_PREFIX, ...of(config) }, log),
          ]),
        ) as Record<WindowCounters, RateLimiter>,
        daily: new DailyQuota(redis, { keyPrefix: config.REDIS_KEY_PREFIX }),
      }),
      inject: [REDIS, CONFIG, LOGGER],
    },
    RateLimits,
    RateLimitGuard,
  ],
  exports: [RateLimits, RateLimitGuard],
})
export class LimitsModule {}
