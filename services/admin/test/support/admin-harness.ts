import { adminContract } from '@clipit/contracts';
import { connectNats, contractClient, type ClientOf } from '@clipit/service-kit';
import { createTestDatabase, deleteEventStreams, deleteKeysWithPrefix, dropTestDatabase, freePorts, isolatedNames, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { bootstrapAdmin, type AdminApp, type AdminConfigOverrides } from '../../src/app.js';

/**
 * One admin per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made.
 */
export interface AdminHarness {
  app: AdminApp;
  client: ClientOf<typeof adminContract>;
  httpUrl: string;
  databaseUrl: string;
  /** The Redis key prefix its counters live under (a second replica shares it). */
  redisKeyPrefix: string;
  stop(): Promise<void>;
}

export async function startAdmin(overrides: AdminConfigOverrides = {}): Promise<AdminHarness> {
  const names = isolatedNames('admin');
  const infra = testInfra();
  const databaseUrl = await createTestDatabase(names.database);
  const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
  let app: AdminApp;
  try {
    app = await bootstrapAdmin({
      ADMIN_DATABASE_URL: databaseUrl,
      ADMIN_GRPC_PORT: grpcPort,
      ADMIN_HTTP_PORT: httpPort,
      ADMIN_BIND_HOST: '127.0.0.1',
      NATS_URL: infra.natsUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_KEY_PREFIX: names.redisKeyPrefix,
      EVENTS_STREAM: names.stream,
      EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
      LOG_LEVEL: 'silent',
      ...overrides,
    });
  } catch (err) {
    await dropTestDatabase(names.database);
    throw err;
  }
  const client = contractClient(adminContract, `127.0.0.1:${grpcPort}`);
  return {
    app,
    client,
    httpUrl: app.httpUrl,
    databaseUrl,
    redisKeyPrefix: String(overrides.REDIS_KEY_PREFIX ?? names.redisKeyPrefix),
    async stop() {
      client.close();
      await app.close();
      const nc = await connectNats(infra.natsUrl, 'admin-test-cleanup');
      await deleteEventStreams(nc, names.stream).finally(() => nc.close());
      await dropTestDatabase(names.database);
      const redis = new Redis(infra.redisUrl);
      await deleteKeysWithPrefix(redis, String(overrides.REDIS_KEY_PREFIX ?? names.redisKeyPrefix)).finally(() => redis.quit());
    },
  };
}
