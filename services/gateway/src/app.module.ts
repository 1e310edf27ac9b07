import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { createStorage } from '@clipit/storage';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AuthModule } from './auth/auth.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { GATEWAY_CONFIG, type GatewayConfig } from './config.js';
import { DocsModule } from './docs/docs.module.js';
import { HealthModule } from './health/health.module.js';
import { createIdentityClient, IDENTITY_CLIENT, type IdentityClient } from './identity/identity.client.js';
import { MediaModule } from './media/media.module.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { SubmissionsModule } from './submissions/submissions.module.js';
import { LOGGER, RATE_LIMITER, REDIS, STORAGE } from './tokens.js';
import { UsersModule } from './users/users.module.js';
import { WebModule } from './web/web.module.js';

/** Closes the connections the infrastructure providers opened. */
@Injectable()
class InfraShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.identity.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Configuration, logger, Redis, the identity client, storage and the rate limiter: one of each per app. */
@Global()
@Module({})
export class InfraModule {
  static forRoot(config: GatewayConfig, log: Logger): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: LOGGER, useValue: log },
        {
          provide: REDIS,
          useFactory: () =>
            new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000, enableAutoPipelining: true }),
        },
        { provide: IDENTITY_CLIENT, useFactory: () => createIdentityClient(config.IDENTITY_GRPC_URL) },
        { provide: STORAGE, useFactory: () => createStorage(config) },
        {
          provide: RATE_LIMITER,
          useFactory: (redis: Redis) =>
            new RateLimiter(redis, {
              keyPrefix: config.REDIS_KEY_PREFIX,
              windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
              maxPerIp: config.RATE_LIMIT_MAX_PER_IP,
              maxPerHandle: config.RATE_LIMIT_MAX_PER_HANDLE,
            }),
          inject: [REDIS],
        },
        InfraShutdown,
      ],
      exports: [GATEWAY_CONFIG, LOGGER, REDIS, IDENTITY_CLIENT, STORAGE, RATE_LIMITER],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig, log: Logger): DynamicModule {
    return {
      module: AppModule,
      // WebModule last: its catch-all GET serves the site for every path no other module claims.
      imports: [InfraModule.forRoot(config, log), AuthModule, UsersModule, CatalogModule, SubmissionsModule, MediaModule, DocsModule, HealthModule, WebModule],
    };
  }
}
