import { CONFIG, LOGGER, RateLimiter, REDIS, SERVICE_INFO, type ServiceInfo } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { OEMBED_LIMITER } from './oembed.js';
import { OembedService } from './oembed.service.js';
import { OembedUpstream } from './oembed-upstream.js';
import { TwitterController } from './twitter.controller.js';

/** GET /api/twitter/oembed: X's embed of a post, cached in Redis (oembed.service.ts). */
@Module({
  controllers: [TwitterController],
  providers: [
    {
      provide: OembedService,
      useFactory: (redis: Redis, config: GatewayConfig, log: Logger, info: ServiceInfo) =>
        new OembedService(
          redis,
          new OembedUpstream({
            endpoint: config.OEMBED_URL,
            timeoutMs: config.OEMBED_TIMEOUT_MS,
            userAgent: `CLIPIT-gateway/${info.version} (post previews)`,
          }),
          {
            keyPrefix: config.REDIS_KEY_PREFIX,
            ttlSeconds: config.OEMBED_CACHE_TTL_SECONDS,
            notFoundTtlSeconds: config.OEMBED_NOT_FOUND_TTL_SECONDS,
          },
          log,
        ),
      inject: [REDIS, CONFIG, LOGGER, SERVICE_INFO],
    },
    {
      provide: OEMBED_LIMITER,
      useFactory: (redis: Redis, config: GatewayConfig, log: Logger) =>
        new RateLimiter(
          redis,
          {
            keyPrefix: config.REDIS_KEY_PREFIX,
            windowSeconds: config.OEMBED_LIMIT_WINDOW_SECONDS,
            maxPerIp: config.OEMBED_LIMIT_PER_IP,
            // Counted per address only (no handle is passed).
            maxPerHandle: config.OEMBED_LIMIT_PER_IP,
          },
          log,
        ),
      inject: [REDIS, CONFIG, LOGGER],
    },
  ],
})
export class TwitterModule {}
