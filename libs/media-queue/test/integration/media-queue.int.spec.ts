// The producer's helper against the real Redis: where the keys go, and one job per video however often it is queued.
import { randomUUID } from 'node:crypto';
import { PROCESS_VIDEO_JOB } from '@clipit/contracts';
import { isolatedNames, testInfra } from '@clipit/testing';
import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  createMediaQueue,
  enqueueProcessVideo,
  MEDIA_QUEUE,
  mediaQueuePrefix,
  redriveProcessVideo,
  type MediaQueue,
} from '../../src/index.js';

describe('createMediaQueue / enqueueProcessVideo on the real Redis', () => {
  const names = isolatedNames('mediaqueue');
  let queue: MediaQueue;
  let redis: Redis;

  beforeAll(() => {
    queue = createMediaQueue({ connection: { url: testInfra().redisUrl }, prefix: names.redisKeyPrefix });
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
    expect(stored).toMatchObject({
      name: PROCESS_VIDEO_JOB,
      data: job,
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
    });

    const keys = await redis.keys(`${names.redisKeyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith(`${mediaQueuePrefix(names.redisKeyPrefix)}:${MEDIA_QUEUE}:`))).toBe(true);
    // The test teardown sweeps `clipit:<run>_*`; the queue's keys fall under it.
    expect(keys.every((k) => k.startsWith(`clipit:${testInfra().runId}_`))).toBe(true);
  });

  describe('redriveProcessVideo', () => {
    const newJob = () => ({
      videoId: randomUUID(),
      submissionId: randomUUID(),
      sourceKey: `uploads/${randomUUID()}`,
      contentType: 'video/mp4',
    });

    /** Takes the next job as a worker would and fails it for good, its progress holding a decided verdict. */
    async function failNextJob(progress: object): Promise<void> {
      const worker = new Worker(MEDIA_QUEUE, null, {
        connection: { url: testInfra().redisUrl, maxRetriesPerRequest: null },
        prefix: mediaQueuePrefix(names.redisKeyPrefix),
        autorun: false,
      });
      try {
        const token = randomUUID();
        const taken = await worker.getNextJob(token);
        if (!taken) throw new Error('no job to take');
        await taken.updateProgress(progress);
        await taken.moveToFailed(new UnrecoverableError('publish timed out'), token);
      } finally {
        await worker.close();
      }
    }

    it('leaves a waiting job alone, queues a lost one again, and retries a failed one keeping its progress, once however many re-drive it', async () => {
      await queue.obliterate({ force: true });
      const job = newJob();
      expect(await redriveProcessVideo(queue, job)).toEqual({ action: 'added', state: 'missing' });
      expect(await redriveProcessVideo(queue, job)).toEqual({ action: 'left', state: 'waiting' });

      await failNextJob({ stage: 'decided', event: { id: 'evt-1', type: 'media.processed' } });
      expect(await queue.getJobState(job.videoId)).toBe('failed');
      // Two replicas at once: one retries, the other finds it on its way.
      const results = await Promise.all([redriveProcessVideo(queue, job), redriveProcessVideo(queue, job)]);
      expect(results.map((r) => r.action).sort()).toEqual(['left', 'retried']);
      const retried = (await queue.getJob(job.videoId))!;
      expect(await retried.getState()).toBe('waiting');
      expect(retried.attemptsMade).toBe(0);
      expect(retried.progress).toEqual({ stage: 'decided', event: { id: 'evt-1', type: 'media.processed' } });
      expect(await queue.getWaitingCount()).toBe(1);

      await retried.remove();
      expect(await redriveProcessVideo(queue, job)).toEqual({ action: 'added', state: 'missing' });
      expect((await queue.getJob(job.videoId))?.data).toEqual(job);
      await queue.obliterate({ force: true });
    });
  });
});
