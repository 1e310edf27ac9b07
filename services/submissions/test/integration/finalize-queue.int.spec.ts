import { mediaKeys, PROCESS_VIDEO_JOB, processVideoJobSchema } from '@clipit/contracts';
import { MEDIA_QUEUE, mediaQueuePrefix, PROCESS_VIDEO_JOB_OPTIONS } from '@clipit/media-queue';
import { runWithCorrelation } from '@clipit/service-kit';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { rejected, SMALL_VIDEO, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// FinalizeVideoUpload hands the video to the media worker through the BullMQ `media` queue on Redis.
// No worker runs here, so what finalize queued is still waiting in Redis, under the run's key prefix.

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions();
});

afterAll(async () => {
  await h?.stop();
});

/** Every state a BullMQ job can be in: "exactly one job" means one across all of them. */
const ALL_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed', 'waiting-children'] as const;

describe('finalize → the media queue', () => {
  it('the queue the harness reads is the one the service writes: <REDIS_KEY_PREFIX>bull:media', () => {
    expect(h.queue.name).toBe(MEDIA_QUEUE);
    expect(h.queue.opts.prefix).toBe(mediaQueuePrefix(h.names.redisKeyPrefix));
    expect(h.app.config.REDIS_KEY_PREFIX).toBe(h.names.redisKeyPrefix);
  });

  it("puts exactly one process-video job on it: job id = video id, the job schema's data, the request's correlation id", async () => {
    const { userId, submission, upload } = await h.withUploadUrl();
    // What the object really is decides the job's content type (the client declared nothing).
    await h.storage.put(upload.storageKey, SMALL_VIDEO, 'video/webm');
    expect(await h.queue.getJob(upload.videoId)).toBeUndefined();

    const correlationId = `finalize-req-${upload.videoId.slice(0, 8)}`;
    const finalized = await runWithCorrelation(correlationId, () =>
      h.client.finalizeVideoUpload({ userId, submissionId: submission.id, videoId: upload.videoId, fileName: 'clip.webm' }),
    );
    expect(finalized).toMatchObject({ id: submission.id, videoState: 'processing', isProcessing: true, videoFileName: 'clip.webm' });
    // int64 on the wire: the loader hands it over as a string (the gateway turns it into a number).
    expect(Number(finalized.videoFileSize)).toBe(SMALL_VIDEO.length);

    const jobs = await h.queue.getJobs([...ALL_STATES]);
    expect(jobs.map((j) => j.id)).toEqual([upload.videoId]);
    const job = jobs[0]!;
    expect(await job.getState()).toBe('waiting');
    expect(job.name).toBe(PROCESS_VIDEO_JOB);
    expect(processVideoJobSchema.strict().parse(job.data)).toEqual({
      videoId: upload.videoId,
      submissionId: submission.id,
      sourceKey: mediaKeys.upload(upload.videoId),
      contentType: 'video/webm',
      correlationId,
    });
    expect(job.opts).toMatchObject({ attempts: PROCESS_VIDEO_JOB_OPTIONS.attempts, backoff: PROCESS_VIDEO_JOB_OPTIONS.backoff });

    // Finalizing again is refused and queues nothing more.
    const again = await rejected(h.client.finalizeVideoUpload({ userId, submissionId: submission.id, videoId: upload.videoId }));
    expect({ code: again.code, message: again.message }).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'This video upload was already finalized',
    });
    expect((await h.queue.getJobs([...ALL_STATES])).map((j) => j.id)).toEqual([upload.videoId]);
    expect(await h.queue.getJobCounts(...ALL_STATES)).toMatchObject({ waiting: 1, active: 0, delayed: 0, failed: 0 });
  });

  it('queues nothing for a finalize it refuses (nothing stored, not a video)', async () => {
    const before = (await h.queue.getJobs([...ALL_STATES])).length;
    const missing = await h.withUploadUrl();
    const notReceived = await rejected(
      h.client.finalizeVideoUpload({ userId: missing.userId, submissionId: missing.submission.id, videoId: missing.upload.videoId }),
    );
    expect(notReceived.code).toBe(status.INVALID_ARGUMENT);

    const text = await h.withUploadUrl();
    await h.storage.put(text.upload.storageKey, Buffer.from('just some notes'), 'text/plain');
    const notVideo = await rejected(
      h.client.finalizeVideoUpload({ userId: text.userId, submissionId: text.submission.id, videoId: text.upload.videoId }),
    );
    expect(notVideo.code).toBe(status.INVALID_ARGUMENT);
    expect(await h.storage.stat(text.upload.storageKey)).toBeUndefined();

    expect(await h.queue.getJob(missing.upload.videoId)).toBeUndefined();
    expect(await h.queue.getJob(text.upload.videoId)).toBeUndefined();
    expect(await h.queue.getJobs([...ALL_STATES])).toHaveLength(before);
  });
});
