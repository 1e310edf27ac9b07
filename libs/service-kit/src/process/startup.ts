import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ensureEventStreams, connectNats, type NatsConnection, type StreamNames } from '../bus/jetstream.js';
import { dataSourceOptions, runMigrationsLocked, type DatabaseOptions } from '../database/database.js';

/** Explicit values (tests, benches) over an environment: what a service's config loader reads. */
export function withOverrides(
  overrides: Readonly<Record<string, string | number | boolean | undefined>>,
  source: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...source };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) env[key] = String(value);
  return env;
}

/** One thing a service closes on shutdown: its name (for the log) and how, or undefined when it never opened. */
export type ShutdownStep = readonly [name: string, close: (() => Promise<unknown>) | undefined];

/**
 * Closes what a service opened, in the order given (servers first, connections last), each step on
 * its own: one that fails is logged and the rest still run.
 */
export async function closeInOrder(steps: readonly ShutdownStep[], logger: Logger): Promise<void> {
  for (const [name, close] of steps) await close?.().catch((err: unknown) => logger.warn({ err }, `shutdown: closing ${name} failed`));
}

export interface ServiceDatabaseOptions extends DatabaseOptions {
  /** The variable the URL came from, named when the database does not exist. */
  urlVariable: string;
  /** Run pending migrations (under the advisory lock) before answering. */
  migrate: boolean;
}

/**
 * A service's own database, connected and (when `migrate`) migrated. A database that does not exist
 * is reported with the variable to fix, not just Postgres's code. On failure nothing stays open.
 */
export async function openServiceDatabase(opts: ServiceDatabaseOptions): Promise<DataSource> {
  // Loaded here, not at the top: only a service with a database pays for typeorm (ADR 0046).
  const { DataSource } = await import('typeorm');
  const dataSource = new DataSource(dataSourceOptions(opts));
  try {
    await dataSource.initialize();
  } catch (err) {
    if ((err as { code?: string }).code === '3D000') {
      throw new Error(
        `database of ${opts.urlVariable} does not exist; create it (npm start does) or point the variable at one: ${(err as Error).message}`,
        { cause: err },
      );
    }
    throw err;
  }
  try {
    if (opts.migrate) {
      const ran = await runMigrationsLocked(dataSource);
      if (ran.length > 0) opts.logger?.info({ migrations: ran }, 'migrations applied');
    }
    return dataSource;
  } catch (err) {
    await dataSource.destroy().catch(() => undefined);
    throw err;
  }
}

/** NATS for a service, with the event stream and its dead-letter stream in place. */
export async function connectEventBus(url: string, service: string, names: StreamNames): Promise<NatsConnection> {
  const nc = await connectNats(url, service);
  try {
    await ensureEventStreams(nc, names);
    return nc;
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
}
