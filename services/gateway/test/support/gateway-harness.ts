import { connectNats } from '@clipit/service-kit';
import { deleteEventStreams, deleteKeysWithPrefix, isolatedNames, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapGateway, type GatewayApp } from '../../src/app.js';
import type { GatewayConfigOverrides } from '../../src/config.js';
import { startFakeIdentity, type FakeIdentity } from './fake-identity.js';

export interface GatewayHarness {
  gateway: GatewayApp;
  identity: FakeIdentity;
  url: string;
  storageRoot: string;
  redisKeyPrefix: string;
  stop(): Promise<void>;
}

/** The real gateway on a free port, over the in-memory identity, a temp storage root and its own Redis prefix. */
export async function startGateway(overrides: GatewayConfigOverrides = {}): Promise<GatewayHarness> {
  const names = isolatedNames('gateway');
  const identity = await startFakeIdentity();
  const storageRoot = await mkdtemp(join(tmpdir(), 'clipit-gateway-storage-'));
  const gateway = await bootstrapGateway({
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: 0,
    IDENTITY_GRPC_URL: identity.url,
    REDIS_URL: testInfra().redisUrl,
    REDIS_KEY_PREFIX: names.redisKeyPrefix,
    // The live stream reads the run's own event stream.
    NATS_URL: testInfra().natsUrl,
    EVENTS_STREAM: names.stream,
    EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
    STORAGE_DRIVER: 'fs',
    STORAGE_FS_ROOT: storageRoot,
    LOG_LEVEL: 'silent',
    // Most tests check what the gateway does with each of identity's answers: no session cache unless a
    // test turns it on (session-cache.int.spec.ts does).
    GATEWAY_SESSION_CACHE_TTL_MS: 0,
    ...overrides,
  });
  return {
    gateway,
    identity,
    url: gateway.httpUrl,
    storageRoot,
    redisKeyPrefix: names.redisKeyPrefix,
    async stop() {
      await gateway.close();
      await identity.close();
      const nc = await connectNats(testInfra().natsUrl, 'gateway-test-cleanup');
      try {
        await deleteEventStreams(nc, names.stream);
      } finally {
        await nc.close();
      }
      const redis = new Redis(testInfra().redisUrl);
      await deleteKeysWithPrefix(redis, names.redisKeyPrefix);
      redis.disconnect();
      await rm(storageRoot, { recursive: true, force: true });
    },
  };
}
