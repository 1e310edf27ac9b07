// The producer's helper against the real Redis: where the keys go, and one job per video however often it is queued.
import { randomUUID } from 'node:crypto';
import { PROCESS_VIDEO_JOB } from '@clipit/contracts';
import { isolatedNames, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { createMediaQueue, enqueueProcessVideo, MEDIA_QUEUE, mediaQueuePrefix, type MediaQueue } from '../../src/index.js';

describe('createMediaQueue / enqueueProcessVideo on the real Redis', () => {
  const names = isolatedNames('mediaqueue');
  let queue: MediaQueue;
  let redis: Redis;

  beforeAll(() => {
    queue = createMediaQueue({ redisUrl: testInfra().redisUrl, prefix: names.redisKeyPrefix });
    redis = new Redis(testInfra().redisUrl);
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  });

  it('queues one job per video id, under <REDIS_KEY_PREFIX>bull:media', async () => {
    const job = { videoId: randomUUID(), submissionId: randomUUID(), sourceKey: `uploads/${randomUUID()}`, contentType: 'video/mp4' };
    const first = await enqueueProcessVideo(queue, job);
    const again = await enqueueProcessVideo(queue, { ...job, sourceKey: 'uploads/other' });
    expect(first.id).toBe(job.videoId);
    expect(again.id).toBe(job.videoId);
    expect(await queue.getWaitingCount()).toBe(1);
    const stored = await queue.getJob(job.videoId);
    expect(stored).toMatchObject({ name: PROCESS_VIDEO_JOB, data: job, opts: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } } });

    const keys = await redis.keys(`${names.redisKeyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith(`${mediaQueuePrefix(names.redisKeyPrefix)}:${MEDIA_QUEUE}:`))).toBe(true);
    // The test teardown sweeps `clipit:<run>_*`; the queue's keys fall under it.
    expect(keys.every((k) => k.startsWith(`clipit:${testInfra().runId}_`))).toBe(true);
  });
});
