import { randomBytes } from 'node:crypto';

/**
 * Where the test run finds Postgres, NATS (JetStream) and Redis, and the names it owns there.
 * Every run gets a run id; databases, streams, subjects and Redis keys all carry it, and the global
 * teardown removes everything that does.
 */
export interface TestInfra {
  runId: string;
  postgresUrl: string;
  natsUrl: string;
  redisUrl: string;
}

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432';
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export function newRunId(): string {
  return `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export function testInfra(): TestInfra {
  const runId = process.env['CLIPIT_TEST_RUN_ID'];
  if (!runId) {
    throw new Error('CLIPIT_TEST_RUN_ID is not set: run tests through `npm test` (the Jest global setup sets it).');
  }
  return {
    runId,
    postgresUrl: stripSlash(process.env['TEST_POSTGRES_URL'] ?? DEFAULT_POSTGRES_URL),
    natsUrl: process.env['TEST_NATS_URL'] ?? DEFAULT_NATS_URL,
    redisUrl: process.env['TEST_REDIS_URL'] ?? DEFAULT_REDIS_URL,
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

let counter = 0;
/** A name unique within this run and this worker, safe for databases, streams and key prefixes. */
export function uniqueName(label: string): string {
  const { runId } = testInfra();
  const worker = process.env['JEST_WORKER_ID'] ?? '0';
  counter += 1;
  return `${runId}_${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${worker}_${counter}_${randomBytes(2).toString('hex')}`;
}

/** The per-run resource names derived from one unique name. */
export function isolatedNames(label: string) {
  const name = uniqueName(label);
  return {
    database: `clipit_${name}`,
    stream: name.toUpperCase(),
    subjectPrefix: `${name}.events`,
    redisKeyPrefix: `clipit:${name}:`,
  };
}

/**
 * The variables that put a service on a test run's own pieces: its NATS stream and subject prefix, its
 * Redis key prefix, and a storage folder on the filesystem driver. Spread into a service's overrides,
 * next to its own database and ports.
 */
export function isolatedServiceEnv(names: ReturnType<typeof isolatedNames>, storageRoot: string) {
  const infra = testInfra();
  return {
    NATS_URL: infra.natsUrl,
    REDIS_URL: infra.redisUrl,
    REDIS_KEY_PREFIX: names.redisKeyPrefix,
    EVENTS_STREAM: names.stream,
    EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
    STORAGE_DRIVER: 'fs',
    STORAGE_FS_ROOT: storageRoot,
  } as const;
}
