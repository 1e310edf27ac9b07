import { createMediaQueue, enqueueProcessVideo } from '@clipit/media';
import { Redis } from 'ioredis';
import type { SubmissionsConfig } from './config.js';
import type { MediaQueuePort } from './services/ports.js';

/**
 * The media queue as submissions uses it: the producer end of @clipit/media's queue (same key prefix
 * rule, job options and job id = video id as the media worker). Resolves once Redis answers, so
 * start-up fails early when it does not. `redis` is a connection of its own for the readiness check:
 * BullMQ keeps its clients behind its backend (its `waitUntilReady()` resolves to nothing).
 */
export async function createBullMediaQueue(config: Pick<SubmissionsConfig, 'REDIS_URL' | 'REDIS_KEY_PREFIX'>): Promise<MediaQueuePort & { redis: Redis }> {
  const queue = createMediaQueue({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX });
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
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
    redis,
    enqueue: async (job) => {
      await enqueueProcessVideo(queue, job);
    },
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
