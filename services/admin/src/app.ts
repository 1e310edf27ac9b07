import { adminContract, campaignsContract, identityContract, rewardsContract, submissionsContract } from '@clipit/contracts';
import { MEDIA_QUEUE, METRICS_QUEUE, openQueueReader } from '@clipit/media-queue';
import {
  bootstrapService,
  defineService,
  every,
  grpcClient,
  packageVersion,
  RateLimiter,
  REDIS,
  redisConnectionOptions,
  redisResource,
  resource,
  type ConfigOverrides,
  type ServiceApp,
} from '@clipit/service-kit';
import type { Redis } from 'ioredis';
import { AdminModule } from './app.module.js';
import { CAMPAIGNS_CLIENT, IDENTITY_CLIENT, LOGIN_LIMITER, QUEUE_READERS, REWARDS_CLIENT, SUBMISSIONS_CLIENT } from './clients.js';
import { adminConfigShape, productionConfigProblem, type AdminConfig } from './config.js';
import { adminEntities, adminMigrations } from './database.js';
import type { QueueReaders } from './repositories/platform-probes.js';
import { SystemMetricsService } from './services/system-metrics.service.js';

/**
 * admin: the admin area (ADR 0020). The admin password and its short-lived tokens, the audit log of
 * every admin action, and the admin commands it carries to the owning services. Served over gRPC
 * (admin.v1.AdminService) to the gateway.
 */
export const adminService = defineService(adminConfigShape, {
  name: 'admin',
  version: packageVersion(import.meta.url),
  database: { entities: adminEntities, migrations: adminMigrations },
  grpc: adminContract,
  startProblem: productionConfigProblem,
  resources: [
    // Password attempts are counted here; with Redis away each replica counts for itself (ADR 0018).
    redisResource(REDIS, { connectTimeout: 2000, commandTimeout: 2000, tolerateOutage: true }),
    resource<AdminConfig, RateLimiter>(
      'login-limiter',
      LOGIN_LIMITER,
      ({ config, logger, get }) =>
        new RateLimiter(
          get<Redis>(REDIS),
          {
            keyPrefix: config.REDIS_KEY_PREFIX,
            windowSeconds: config.ADMIN_LOGIN_WINDOW_SECONDS,
            maxPerIp: config.ADMIN_LOGIN_MAX_PER_IP,
            maxPerHandle: config.ADMIN_LOGIN_MAX_PER_IP,
          },
          logger,
        ),
    ),
    // Read-only counts of the media and metrics queues for system metrics (ADR 0039).
    resource<AdminConfig, QueueReaders>(
      'queue readers',
      QUEUE_READERS,
      ({ config, logger }) =>
        new Map(
          [MEDIA_QUEUE, METRICS_QUEUE].map((queue) => [
            queue,
            openQueueReader({ queue, connection: redisConnectionOptions(config), prefix: config.REDIS_KEY_PREFIX, logger }),
          ]),
        ),
      { close: (readers) => Promise.all([...readers.values()].map((r) => r.close())) },
    ),
  ],
  clients: [
    // Each owner's outage takes out only its own tab, so none of them decides admin's readiness.
    grpcClient(submissionsContract, { token: SUBMISSIONS_CLIENT, url: (c) => c.SUBMISSIONS_GRPC_URL, readiness: 'reported' }),
    grpcClient(identityContract, { token: IDENTITY_CLIENT, url: (c) => c.IDENTITY_GRPC_URL, readiness: 'reported' }),
    grpcClient(campaignsContract, { token: CAMPAIGNS_CLIENT, url: (c) => c.CAMPAIGNS_GRPC_URL, readiness: 'reported' }),
    grpcClient(rewardsContract, { token: REWARDS_CLIENT, url: (c) => c.REWARDS_GRPC_URL, readiness: 'reported' }),
  ],
  // The platform's health into system_metrics; every replica ticks, the first to claim an interval samples it (ADR 0039).
  workers: [
    every(
      'system metrics',
      (c) => c.ADMIN_SYSTEM_METRICS_INTERVAL_MS,
      ({ get }) => get(SystemMetricsService).sampleNow(),
    ),
  ],
  module: AdminModule,
});

export type AdminApp = ServiceApp<AdminConfig>;
export type AdminConfigOverrides = ConfigOverrides<typeof adminConfigShape>;

export const bootstrapAdmin = (overrides: AdminConfigOverrides = {}): Promise<AdminApp> => bootstrapService(adminService, overrides);

// For what drives admin from outside (the e2e journeys mint an expired token with the known development
// keys to see it refused; an operator's script could mint one the same way): the token format and its keys.
export { issueAdminToken } from './domain/admin-token.js';
export { DEVELOPMENT_TOKEN_SECRET } from './config.js';
