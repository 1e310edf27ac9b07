import { checkInfrastructure } from './preflight.js';
import { DEFAULT_NATS_URL, DEFAULT_POSTGRES_URL, DEFAULT_REDIS_URL, newRunId } from './infra.js';
import { startContainersIfNeeded } from './containers.js';

// Runs once per Jest invocation, before any worker starts: workers inherit what is set here.
export default async function globalSetup(): Promise<void> {
  if (!process.env['CLIPIT_TEST_RUN_ID']) process.env['CLIPIT_TEST_RUN_ID'] = newRunId();
  await startContainersIfNeeded();
  process.env['TEST_POSTGRES_URL'] ??= DEFAULT_POSTGRES_URL;
  process.env['TEST_NATS_URL'] ??= DEFAULT_NATS_URL;
  process.env['TEST_REDIS_URL'] ??= DEFAULT_REDIS_URL;
  await checkInfrastructure();
}
