import { CONFIG, LOGGER, REDIS } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import { MultipartModule } from '@nestjs/platform-fastify/multipart';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { RateLimiter } from '@clipit/service-kit';
import { RATE_LIMITER } from '../tokens.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { signupMultipartOptions } from './profile-picture.js';
import { SESSION_CACHE, SessionCache } from './session-cache.js';
import { SessionInvalidations } from './session-invalidations.js';
import { OptionalSessionGuard, SessionGuard, SessionResolver, SessionStrategy } from './session.strategy.js';
import { XOAuthClient } from './x-oauth.client.js';
import { XOAuthController } from './x-oauth.controller.js';
import { XOAuthService } from './x-oauth.service.js';
import { XFlowStore } from './x-oauth.store.js';

@Module({
  imports: [
    MultipartModule.registerAsync({
      useFactory: (config: GatewayConfig) => signupMultipartOptions(config.PROFILE_IMAGE_MAX_BYTES),
      inject: [CONFIG],
    }),
  ],
  controllers: [AuthController, XOAuthController],
  providers: [
    AuthService,
    {
      provide: SESSION_CACHE,
      useFactory: (config: GatewayConfig) =>
        new SessionCache({ ttlMs: config.GATEWAY_SESSION_CACHE_TTL_MS, maxEntries: config.GATEWAY_SESSION_CACHE_MAX_ENTRIES }),
      inject: [CONFIG],
    },
    SessionInvalidations,
    SessionResolver,
    SessionStrategy,
    SessionGuard,
    OptionalSessionGuard,
    XOAuthService,
    XOAuthClient,
    XFlowStore,
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
  exports: [SessionGuard, OptionalSessionGuard, SessionResolver, SessionStrategy, SESSION_CACHE, RATE_LIMITER],
})
export class AuthModule {}
