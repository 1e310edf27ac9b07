import { CONFIG } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import { MultipartModule } from '@nestjs/platform-fastify/multipart';
import type { GatewayConfig } from '../config.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { SessionCookies } from './session-cookies.js';
import { signupMultipartOptions } from './profile-picture.js';
import { SESSION_CACHE, SessionCache } from './session-cache.js';
import { SessionInvalidations } from './session-invalidations.js';
import { OptionalSessionGuard, SessionGuard, SessionResolver, SessionStrategy } from './session.strategy.js';
import { XOAuthClient } from './x-oauth.client.js';
import { XOAuthAnswers } from './x-oauth.answers.js';
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
    SessionCookies,
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
    XOAuthAnswers,
    XOAuthClient,
    XFlowStore,
  ],
  exports: [SessionGuard, OptionalSessionGuard, SessionResolver, SessionStrategy, SESSION_CACHE],
})
export class AuthModule {}
