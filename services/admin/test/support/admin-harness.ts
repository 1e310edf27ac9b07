import { adminContract } from '@clipit/contracts';
import { contractClient, type ClientOf } from '@clipit/service-kit';
import { deleteKeysWithPrefix, startServiceUnderTest, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { bootstrapAdmin, adminService, type AdminApp, type AdminConfigOverrides } from '../../src/app.js';

/**
 * One admin per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made,
 * its Redis counters too.
 */
export interface AdminHarness {
  app: AdminApp;
  client: ClientOf<typeof adminContract>;
  httpUrl: string;
  databaseUrl: string;
  /** The Redis key prefix its counters live under (a second replica shares it). */
  redisKeyPrefix: string;
  /** Its event stream and subject prefix. */
  stream: string;
  subjectPrefix: string;
  stop(): Promise<void>;
}

export async function startAdmin(overrides: AdminConfigOverrides = {}): Promise<AdminHarness> {
  const service = await startServiceUnderTest('admin', 'ADMIN', bootstrapAdmin, overrides, adminService);
  const client = contractClient(adminContract, service.grpcAddress);
  const redisKeyPrefix = String(overrides.REDIS_KEY_PREFIX ?? service.names.redisKeyPrefix);
  return {
    app: service.app,
    client,
    httpUrl: service.app.httpUrl,
    databaseUrl: service.databaseUrl,
    redisKeyPrefix,
    stream: String(overrides.EVENTS_STREAM ?? service.names.stream),
    subjectPrefix: String(overrides.EVENTS_SUBJECT_PREFIX ?? service.names.subjectPrefix),
    async stop() {
      client.close();
      await service.stop();
      const redis = new Redis(testInfra().redisUrl);
      try {
        await deleteKeysWithPrefix(redis, redisKeyPrefix);
      } finally {
        await redis.quit();
      }
    },
  };
}
