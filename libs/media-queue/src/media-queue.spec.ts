import { randomUUID } from 'node:crypto';
import { PROCESS_VIDEO_JOB } from '@clipit/contracts';
import { jest } from '@jest/globals';
import { ZodError } from 'zod';
import { mediaQueuePrefix } from './job-queue.js';
import { enqueueProcessVideo, PROCESS_VIDEO_JOB_OPTIONS, type MediaQueue } from './media-queue.js';

describe('mediaQueuePrefix', () => {
  it("puts the queue under the deployment's key prefix, inside a test run's sweep pattern", () => {
    expect(mediaQueuePrefix('clipit:')).toBe('clipit:bull');
    expect(mediaQueuePrefix('clipit:t1abc_media_1_2_ab12:')).toBe('clipit:t1abc_media_1_2_ab12:bull');
    expect(`${mediaQueuePrefix('clipit:t1abc_x:')}:media:wait`).toMatch(/^clipit:t1abc_/);
  });

  it('refuses a prefix that already has the rule applied', () => {
    expect(() => mediaQueuePrefix('clipit:bull')).toThrow(/REDIS_KEY_PREFIX/);
  });
});

describe('enqueueProcessVideo', () => {
  const fakeQueue = () => {
    const add = jest.fn(async (name: string, data: unknown, opts: unknown) => ({ name, data, opts }));
    return { queue: { add } as unknown as MediaQueue, add };
  };
  const job = () => ({ videoId: randomUUID(), submissionId: randomUUID(), sourceKey: 'uploads/x', contentType: 'video/mp4' });

  it('adds process-video with the video id as job id, three attempts, exponential backoff and bounded retention', async () => {
    const { queue, add } = fakeQueue();
    const data = job();
    await enqueueProcessVideo(queue, data);
    expect(add).toHaveBeenCalledWith(PROCESS_VIDEO_JOB, data, {
      jobId: data.videoId,
      attempts: 3,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: PROCESS_VIDEO_JOB_OPTIONS.removeOnComplete,
      removeOnFail: PROCESS_VIDEO_JOB_OPTIONS.removeOnFail,
    });
    expect(PROCESS_VIDEO_JOB_OPTIONS.removeOnComplete.count).toBeGreaterThan(0);
    expect(PROCESS_VIDEO_JOB_OPTIONS.removeOnFail.count).toBeGreaterThan(0);
  });

  it('refuses data that does not match the job schema, and adds nothing', async () => {
    const { queue, add } = fakeQueue();
    await expect(enqueueProcessVideo(queue, { ...job(), videoId: 'not-a-uuid' })).rejects.toThrow(ZodError);
    await expect(enqueueProcessVideo(queue, { ...job(), sourceKey: '' })).rejects.toThrow(ZodError);
    expect(add).not.toHaveBeenCalled();
  });

  it('drops fields the schema does not know', async () => {
    const { queue, add } = fakeQueue();
    const data = job();
    await enqueueProcessVideo(queue, { ...data, extra: 'x' } as never);
    expect(add.mock.calls[0]![1]).toEqual(data);
  });
});
