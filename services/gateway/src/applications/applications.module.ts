import { CONFIG, LOGGER, RateLimiter, REDIS } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { ApplicationsController } from './applications.controller.js';
import { APPLICATION_LIMITER } from './applications.tokens.js';

@Module({
  controllers: [ApplicationsController],
  providers: [
    {
      provide: APPLICATION_LIMITER,
      useFactory: (redis: Redis, config: GatewayConfig, log: Logger) =>
        new RateLimiter(
          redis,
          {
            keyPrefix: config.REDIS_KEY_PREFIX,
            windowSeconds: config.APPLICATION_LIMIT_WINDOW_SECONDS,
            maxPerIp: config.APPLICATION_LIMIT_PER_IP,
            // Counted per address only (no handle is passed).
            maxPerHandle: config.APPLICATION_LIMIT_PER_IP,
          },
          log,
        ),
      inject: [REDIS, CONFIG, LOGGER],
    },
  ],
})
export class ApplicationsModule {}
