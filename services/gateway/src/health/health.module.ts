import { Module } from '@nestjs/common';
import { HEALTH_CHECKS, HealthController, MetricsController, redisCheck, type HealthCheck } from '@clipit/service-kit';
import type { Redis } from 'ioredis';
import { IDENTITY_CLIENT, type IdentityClient } from '../identity/identity.client.js';
import { REDIS } from '../tokens.js';

/** Identity answers a real call (a small read), not just an open channel. */
export function identityCheck(identity: IdentityClient): HealthCheck {
  return { name: 'identity', check: async () => void (await identity.listTokens({})) };
}

@Module({
  controllers: [HealthController, MetricsController],
  providers: [
    {
      provide: HEALTH_CHECKS,
      useFactory: (redis: Redis, identity: IdentityClient): HealthCheck[] => [redisCheck(redis), identityCheck(identity)],
      inject: [REDIS, IDENTITY_CLIENT],
    },
  ],
})
export class HealthModule {}
