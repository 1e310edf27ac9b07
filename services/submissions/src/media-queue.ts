import { createMediaQueue, enqueueProcessVideo } from '@clipit/media';
import type { Redis } from 'ioredis';
import type { SubmissionsConfig } from './config.js';
import type { MediaQueuePort } from './services/ports.js';

/**
 * The media queue as submissions uses it: the producer end of @clipit/media's queue (same key prefix
 * rule, job options and job id = video id as the media worker). Resolves once Redis answers, so
 * start-up fails early when it does not.
 */
export async function createBullMediaQueue(config: Pick<SubmissionsConfig, 'REDIS_URL' | 'REDIS_KEY_PREFIX'>): Promise<MediaQueuePort & { redis: Redis }> {
  const queue = createMediaQueue({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX });
  let redis: Redis;
  try {
    redis = (await queue.waitUntilReady()) as unknown as Redis;
  } catch (err) {
    await queue.close().catch(() => undefined);
    throw err;
  }
  return {
    redis,
    enqueue: async (job) => {
      await enqueueProcessVideo(queue, job);
    },
    close: () => queue.close(),
  };
}
