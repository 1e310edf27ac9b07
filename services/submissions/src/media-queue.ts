import {
  createMediaQueue,
  enqueueProcessVideo,
  redisRetryStrategy,
  redriveFingerprintVideo,
  redriveProcessVideo,
  type ConnectionLogger,
} from '@clipit/media-queue';
import { redisConnectionOptions, type HealthCheck, type RedisConnectionConfig } from '@clipit/service-kit';
import { Redis } from 'ioredis';
import type { SubmissionsConfig } from './config.js';
import type { MediaQueuePort } from './ports.js';

/**
 * The media queue as submissions uses it: the producer end of @clipit/media-queue (same key prefix
 * rule, job options and job id = video id as the media worker). Resolves once Redis answers, so
 * start-up fails early when it does not.
 *
 * `healthCheck` is ready only when Redis answers a ping on a connection of the check's own (BullMQ 6's
 * `waitUntilReady()` hands out no client) and BullMQ's own connection is up again: after an outage it
 * reconnects on its own (within about a second of Redis answering), and until it has, jobs cannot be
 * queued. An outage is logged once when it starts and once when it ends (`logger`).
 */
export async function createBullMediaQueue(
  config: RedisConnectionConfig & Pick<SubmissionsConfig, 'REDIS_KEY_PREFIX'>,
  logger?: ConnectionLogger,
): Promise<MediaQueuePort & { healthCheck: HealthCheck }> {
  const connection = redisConnectionOptions(config);
  const queue = createMediaQueue({ connection, prefix: config.REDIS_KEY_PREFIX, logger });
  const redis = new Redis({
    ...connection,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: redisRetryStrategy,
  });
  redis.on('error', () => undefined); // reported by the readiness check
  try {
    await queue.waitUntilReady();
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    await queue.close().catch(() => undefined);
    throw err;
  }
  return {
    healthCheck: {
      name: 'redis',
      check: async () => {
        await redis.ping();
        const client = await queue.getBackend().client;
        if (client.status !== 'ready') throw new Error(`the media queue's connection is ${client.status}`);
      },
    },
    enqueue: async (job) => {
      await enqueueProcessVideo(queue, job);
    },
    redrive: (job) => redriveProcessVideo(queue, job),
    redriveFingerprint: (job) => redriveFingerprintVideo(queue, job),
    close: async () => {
      redis.disconnect();
      try {
        await queue.close();
      } catch (err) {
        // QUIT needs Redis: when it is unreachable, close() fails and BullMQ's client would keep reconnecting.
        (await queue.getBackend().client).disconnect();
        throw err;
      }
    },
  };
}
