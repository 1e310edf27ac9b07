import { shutdownTelemetry } from '@clipit/telemetry';
import { ConfigError } from '../config/config.js';
import { createLogger } from '../logging/logger.js';

export interface RunningService {
  /** Stops taking work, lets running work finish, then releases connections. */
  close(): Promise<void>;
}

/** How long in-flight work gets once a stop signal arrives (orchestrators wait a little longer). */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * A service's process entry: starts it, and on SIGTERM/SIGINT closes it in order, exiting 0, or 1
 * when closing fails or outlasts the grace period. A bad configuration exits 78 (EX_CONFIG) with the
 * message naming the variables; any other start-up failure exits 1.
 */
export async function runService(name: string, start: () => Promise<RunningService>, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  let service: RunningService;
  try {
    service = await start();
  } catch (err) {
    // Before the service's logger exists (bad configuration) the message still has to reach a person.
    console.error(
      err instanceof ConfigError
        ? err.message
        : `${name} failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    process.exit(err instanceof ConfigError ? 78 : 1);
  }
  const log = createLogger(name);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error({ graceMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    force.unref();
    // The spans of the last work leave after everything is closed, within the same grace period.
    service.close().then(
      () => shutdownTelemetry().then(() => process.exit(0)),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        void shutdownTelemetry().then(() => process.exit(1));
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
