import { testInfra } from './infra.js';
import { dropDatabasesWithPrefix } from './postgres.js';
import { deleteStreamsWithPrefix } from './nats.js';
import { deleteRedisKeysWithPrefix } from './redis.js';
import { stopContainers } from './containers.js';

// Removes everything this run created, even what a failed test left behind.
export default async function globalTeardown(): Promise<void> {
  const { runId } = testInfra();
  await dropDatabasesWithPrefix(`clipit_${runId}_`);
  await deleteStreamsWithPrefix(runId.toUpperCase());
  await deleteRedisKeysWithPrefix(`clipit:${runId}_`);
  await stopContainers();
}
