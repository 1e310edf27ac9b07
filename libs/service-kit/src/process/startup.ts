import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ensureEventStreams, connectNats, type EventStreamOptions, type NatsConnection, type StreamNames } from '../bus/jetstream.js';
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

/** How long a booting service keeps asking a JetStream that does not answer yet before it gives up. */
export const JETSTREAM_READY_WITHIN_MS = 60_000;

/**
 * A JetStream that is there but not answering yet: a request timed out (a server just started, or busy
 * recovering its store) or found no responder (JetStream still starting, or a NATS restarted without it
 * for a moment). Anything else (a refused
 * stream config, no permission) is an answer, and retrying would not change it.
 */
export function isJetStreamNotReady(err: unknown): boolean {
  for (
    let e = err as { name?: string; code?: string | number; message?: string; cause?: unknown } | null, depth = 0;
    e && depth < 4;
    depth += 1
  ) {
    // `JetStreamNotEnabled` is what a request finding no JetStream responder becomes (its cause: no responders).
    if (
      /timeout|no responders|JetStreamNotEnabled|jetstream is not enabled|\b503\b/i.test(
        `${e.name ?? ''} ${e.code ?? ''} ${e.message ?? ''}`,
      )
    )
      return true;
    e = (typeof e.cause === 'object' ? e.cause : null) as typeof e;
  }
  return false;
}

/**
 * NATS for a service, with the event stream and its dead-letter stream in place. A JetStream that does not
 * answer yet is asked again (one second apart, up to `readyWithinMs`) rather than failing the boot: a
 * service and its NATS starting together, or a NATS restarting from a large store, is not an outage.
 */
export async function connectEventBus(
  url: string,
  service: string,
  names: StreamNames,
  { readyWithinMs = JETSTREAM_READY_WITHIN_MS, ...streams }: EventStreamOptions & { readyWithinMs?: number } = {},
): Promise<NatsConnection> {
  const nc = await connectNats(url, service);
  const deadline = Date.now() + readyWithinMs;
  try {
    for (;;) {
      try {
        await ensureEventStreams(nc, names, streams);
        return nc;
      } catch (err) {
        if (!isJetStreamNotReady(err) || Date.now() + 1000 >= deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
}
