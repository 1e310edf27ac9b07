// What every benchmark gives the services it starts: a Postgres database, JetStream stream names, a
// Redis key prefix and a storage folder of its own, removed again (with whatever the services wrote)
// when the benchmark ends, however it ends.
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const env = (name, def) => process.env[name] || def;
export const POSTGRES_URL = env('BENCH_POSTGRES_URL', 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '');
export const NATS_URL = env('NATS_URL', 'nats://127.0.0.1:4222');
export const REDIS_URL = env('REDIS_URL', 'redis://127.0.0.1:6379');

/**
 * Creates the isolated pieces for a benchmark named `label`. `env` holds the variables every service
 * needs to use them (events, Redis prefix, the storage folder); `databaseUrl` is identity's database;
 * `databaseUrls` has one more per name in `otherDatabases` (each service migrates a database of its own);
 * `cleanup()` removes everything, in reverse.
 */
export async function isolatedBackend(label, { otherDatabases = [] } = {}) {
  const id = `${label}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const names = { database: `clipit_${id}`, stream: id.toUpperCase(), subjectPrefix: `${id}.events`, redisKeyPrefix: `clipit:${id}:` };
  const cleanups = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch((err) => console.error(`cleanup: ${err.message}`));
    cleanups.length = 0;
  };
  try {
    const admin = new pg.Client({ connectionString: `${POSTGRES_URL}/postgres` });
    await admin.connect();
    cleanups.push(() => admin.end());
    const databases = {
      identity: names.database,
      ...Object.fromEntries(otherDatabases.map((name) => [name, `${names.database}_${name}`])),
    };
    for (const database of Object.values(databases)) {
      await admin.query(`CREATE DATABASE "${database}"`);
      cleanups.push(() => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    }
    const storageRoot = await mkdtemp(join(tmpdir(), `clipit-${label}-`));
    cleanups.push(() => rm(storageRoot, { recursive: true, force: true }));
    cleanups.push(async () => {
      const nc = await connect({ servers: NATS_URL });
      const jsm = await jetstreamManager(nc);
      for (const stream of [names.stream, `${names.stream}_DLQ`]) await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
    });
    cleanups.push(async () => {
      const redis = new Redis(REDIS_URL);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${names.redisKeyPrefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    });
    return {
      names,
      storageRoot,
      databaseUrl: `${POSTGRES_URL}/${names.database}`,
      databaseUrls: Object.fromEntries(Object.entries(databases).map(([name, database]) => [name, `${POSTGRES_URL}/${database}`])),
      env: {
        NATS_URL,
        REDIS_URL,
        REDIS_KEY_PREFIX: names.redisKeyPrefix,
        EVENTS_STREAM: names.stream,
        EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
        STORAGE_DRIVER: 'fs',
        STORAGE_FS_ROOT: storageRoot,
      },
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** identity's own variables on this backend: its database, its two ports, loopback only. */
export function identityEnv(backend, { grpcPort, httpPort }) {
  return {
    IDENTITY_DATABASE_URL: backend.databaseUrl,
    IDENTITY_GRPC_PORT: String(grpcPort),
    IDENTITY_HTTP_PORT: String(httpPort),
    IDENTITY_BIND_HOST: '127.0.0.1',
  };
}
