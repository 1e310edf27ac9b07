import { CONFIG, LOGGER, REDIS } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { MultipartModule } from '@nestjs/platform-fastify/multipart';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { RateLimiter } from '@clipit/service-kit';
import { RATE_LIMITER } from '../tokens.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { signupMultipartOptions } from './profile-picture.js';
import { OptionalSessionGuard, SessionGuard, SessionStrategy } from './session.strategy.js';

@Module({
  imports: [
    PassportModule,
    MultipartModule.registerAsync({
      useFactory: (config: GatewayConfig) => signupMultipartOptions(config.PROFILE_IMAGE_MAX_BYTES),
      inject: [CONFIG],
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SessionStrategy,
    SessionGuard,
    OptionalSessionGuard,
    {
      provide: RATE_LIMITER,
      useFactory: (redis: Redis, config: GatewayConfig, log: Logger) =>
        new RateLimiter(
          redis,
          {
            keyPrefix: config.REDIS_KEY_PREFIX,
            windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
            maxPerIp: config.RATE_LIMIT_MAX_PER_IP,
            maxPerHandle: config.RATE_LIMIT_MAX_PER_HANDLE,
          },
          log,
        ),
      inject: [REDIS, CONFIG, LOGGER],
    },
  ],
  exports: [SessionGuard, OptionalSessionGuard, SessionStrategy],
})
export class AuthModule {}
