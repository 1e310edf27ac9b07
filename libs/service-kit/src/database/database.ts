import type { Logger } from 'pino';
// typeorm and pg are imported as types here, as values only where a database is opened: a process without one
// (the gateway, the media worker) loads this module through the kit's index, and typeorm's ~300 modules would
// cost it about 7 MB of heap (ADR 0046).
import type { DataSource, DataSourceOptions, EntitySchema, MixedList, QueryFailedError } from 'typeorm';
import { TypeOrmPinoLogger } from './typeorm-logger.js';

export interface DatabaseOptions {
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  /** A pooled connection idle this long (ms) is closed; pg's default, 10 s, when not given. */
  poolIdleMs?: number;
  /** When given, TypeORM logs through it as JSON, without query parameters (see TypeOrmPinoLogger). */
  logger?: Logger;
}

/** A service's own database: migrations only, never `synchronize`. */
export function dataSourceOptions(opts: DatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: opts.url,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn'],
    ...(opts.logger ? { logger: new TypeOrmPinoLogger(opts.logger) } : {}),
    extra: { max: opts.poolSize ?? 10, idleTimeoutMillis: opts.poolIdleMs ?? 10_000 },
  };
}

const MIGRATION_LOCK = 727_001; // any constant shared by every replica of every service

/**
 * Runs pending migrations while holding a Postgres advisory lock, so replicas starting together
 * never run the same migration twice.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const done = await dataSource.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

/** Creates the database named in the URL when it does not exist yet (local start and tests). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name in URL: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE "${name}"`);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '42P04') return false; // created by a racing replica
    throw err;
  } finally {
    await client.end();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID, as every table's id column is: anything else can name no row (and would make Postgres fail the query). */
export function isUuid(value: string | null | undefined): value is string {
  return UUID.test(value ?? '');
}

/** The UUID in canonical lowercase form (surrounding spaces ignored), or undefined when it is not one. */
export function uuidOrUndefined(raw: string | null | undefined): string | undefined {
  const value = (raw ?? '').trim();
  return isUuid(value) ? value.toLowerCase() : undefined;
}

/** The constraint a unique violation (SQLSTATE 23505) broke, or undefined for any other error. */
export function uniqueViolation(err: unknown): string | undefined {
  // TypeORM's errors are named after their class (TypeORMError's name getter), which spares loading typeorm here.
  if (!(err instanceof Error) || err.name !== 'QueryFailedError') return undefined;
  const driverError = (err as QueryFailedError & { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' ? (driverError.constraint ?? 'unknown') : undefined;
}
