import { Redis } from 'ioredis';
import { testInfra } from './infra.js';

/** Deletes every Redis key that starts with the prefix. */
export async function deleteRedisKeysWithPrefix(prefix: string): Promise<number> {
  const redis = new Redis(testInfra().redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
