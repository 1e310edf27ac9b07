import { CONFIG, LOGGER, RateLimiter, REDIS } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { CampaignsController } from './campaigns.controller.js';
import { HIRE_LIMITER } from './hire-limit.js';

@Module({
  controllers: [CampaignsController],
  providers: [
    {
      provide: HIRE_LIMITER,
      useFactory: (redis: Redis, config: GatewayConfig, log: Logger) =>
        new RateLimiter(
          redis,
          {
            keyPrefix: config.REDIS_KEY_PREFIX,
            windowSeconds: config.HIRE_LIMIT_WINDOW_SECONDS,
            maxPerIp: config.HIRE_LIMIT_PER_IP,
            // Counted per address only (no handle is passed).
            maxPerHandle: config.HIRE_LIMIT_PER_IP,
          },
          log,
        ),
      inject: [REDIS, CONFIG, LOGGER],
    },
  ],
})
export class CampaignsModule {}
