import { CONFIG, LOGGER, REDIS, SERVICE_INFO, type ServiceInfo } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { OembedService } from './oembed.service.js';
import { OembedUpstream } from './oembed-upstream.js';
import { PostPreviews } from './post-previews.service.js';
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
    PostPreviews,
  ],
})
export class TwitterModule {}
