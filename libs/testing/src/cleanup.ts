import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Redis } from 'ioredis';

/**
 * Removes a test's event stream and its dead-letter stream (`<stream>_DLQ`, as the service kit names
 * it). Missing streams are fine: a test may stop before they were made.
 */
export async function deleteEventStreams(nc: NatsConnection, stream: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const name of [stream, `${stream}_DLQ`]) await jsm.streams.delete(name).catch(() => undefined);
}

/** Deletes the keys a test wrote under its own prefix (the global teardown sweeps the run's prefix too). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
