// The metrics queue's producer helper against the real Redis: where the keys go, one job per batch id,
// and nothing queued that the worker could not take.
import { randomUUID } from 'node:crypto';
import { METRICS_BATCH_MAX, REFRESH_METRICS_JOB } from '@clipit/contracts';
import { isolatedNames, testInfra } from '@clipit/testing';
import { Redis } from 'ioredis';
import { ZodError } from 'zod';
import { createMetricsQueue, enqueueRefreshMetrics, METRICS_QUEUE, metricsQueuePrefix, type MetricsQueue } from '../../src/index.js';

const post = (n: number) => ({ submissionId: randomUUID(), externalId: String(1_900_000_000_000_000_000n + BigInt(n)) });

describe('createMetricsQueue / enqueueRefreshMetrics on the real Redis', () => {
  const names = isolatedNames('metricsqueue');
  let queue: MetricsQueue;
  let redis: Redis;

  beforeAll(() => {
    queue = createMetricsQueue({ connection: { url: testInfra().redisUrl }, prefix: names.redisKeyPrefix });
    redis = new Redis(testInfra().redisUrl);
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  });

  it('queues one job per batch id, under <REDIS_KEY_PREFIX>bull:metrics, with the shared job options', async () => {
    const batch = { batchId: `metrics-1-${randomUUID()}`, posts: [post(1), post(2)] };
    const first = await enqueueRefreshMetrics(queue, batch);
    const again = await enqueueRefreshMetrics(queue, { ...batch, posts: [post(3)] });
    expect(first.id).toBe(batch.batchId);
    expect(again.id).toBe(batch.batchId);
    expect(await queue.getWaitingCount()).toBe(1);
    expect(await queue.getJob(batch.batchId)).toMatchObject({
      name: REFRESH_METRICS_JOB,
      data: batch,
      opts: { attempts: 5, backoff: { type: 'exponential', delay: 10_000 }, removeOnComplete: { age: 3600, count: 500 } },
    });

    const keys = await redis.keys(`${names.redisKeyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith(`${metricsQueuePrefix(names.redisKeyPrefix)}:${METRICS_QUEUE}:`))).toBe(true);
    expect(keys.every((k) => k.startsWith(`clipit:${testInfra().runId}_`))).toBe(true);
  });

  it('refuses a batch X could not take in one lookup, an empty one, a bad post id or a batch id BullMQ would refuse, queueing nothing', async () => {
    await queue.obliterate({ force: true });
    const tooMany = Array.from({ length: METRICS_BATCH_MAX + 1 }, (_, i) => post(i));
    await expect(enqueueRefreshMetrics(queue, { batchId: 'too-many', posts: tooMany })).rejects.toBeInstanceOf(ZodError);
    await expect(enqueueRefreshMetrics(queue, { batchId: 'empty', posts: [] })).rejects.toBeInstanceOf(ZodError);
    await expect(
      enqueueRefreshMetrics(queue, { batchId: 'bad-id', posts: [{ submissionId: randomUUID(), externalId: 'abc' }] }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(enqueueRefreshMetrics(queue, { batchId: 'metrics:1', posts: [post(1)] })).rejects.toBeInstanceOf(ZodError);
    expect(await queue.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 0, delayed: 0 });
    // A full batch is fine.
    await enqueueRefreshMetrics(queue, { batchId: 'full', posts: tooMany.slice(0, METRICS_BATCH_MAX) });
    expect(await queue.getWaitingCount()).toBe(1);
  });
});
