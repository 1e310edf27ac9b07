import { bootstrapIdentity } from './app.js';

// The process entry: start, then shut down in order on SIGTERM/SIGINT (deploys and Ctrl-C).
const SHUTDOWN_GRACE_MS = 15_000;

try {
  const identity = await bootstrapIdentity();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    identity.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      identity.logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    identity.close().then(
      () => process.exit(0),
      (err: unknown) => {
        identity.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (err) {
  // Before the logger exists (bad configuration) the message still has to reach a person.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
