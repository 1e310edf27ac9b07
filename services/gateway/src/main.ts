import { ConfigError } from '@clipit/service-kit';
import { bootstrapGateway, type GatewayApp } from './app.js';

// In-flight requests get this long to finish once a stop signal arrives.
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let gateway: GatewayApp;
  try {
    gateway = await bootstrapGateway();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const stop = (signal: NodeJS.Signals) => {
    gateway.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      gateway.log.error({ graceMs: SHUTDOWN_GRACE_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    gateway.close().then(
      () => process.exit(0),
      (err: unknown) => {
        gateway.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error('gateway failed to start:', err);
  process.exit(1);
});
