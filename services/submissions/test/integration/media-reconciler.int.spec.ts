// The reconciler against the real Postgres and the media queue on the real Redis (no worker runs
// here): which videos it re-drives and what it does to their jobs, depending on the state it finds.
import { randomUUID } from 'node:crypto';
import { MEDIA_QUEUE, mediaQueuePrefix } from '@clipit/media-queue';
import { testInfra } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UnrecoverableError, Worker } from 'bullmq';
import { MediaReconcilerService } from '../../src/services/media-reconciler.service.js';
import { startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions({ MEDIA_PROCESSING_STALE_SECONDS: 600 });
});

afterAll(async () => {
  await h?.stop();
});

/** As if finalized `seconds` ago. */
const finalizedAgo = (videoId: string, seconds: number) =>
  h.db.query(`UPDATE video_uploads SET finalized_at = now() - make_interval(secs => $2) WHERE id = $1`, [videoId, seconds]);

/** Takes the queue's next job as a worker does and fails it for good, as the old worker did after three publish timeouts. */
async function failNextJob(): Promise<string> {
  const worker = new Worker(MEDIA_QUEUE, null, {
    connection: { url: testInfra().redisUrl, maxRetriesPerRequest: null },
    prefix: mediaQueuePrefix(h.names.redisKeyPrefix),
    autorun: false,
  });
  try {
    const token = randomUUID();
    const job = await worker.getNextJob(token);
    if (!job) throw new Error('no job waiting');
    await job.moveToFailed(new UnrecoverableError('nats: timeout'), token);
    return job.id!;
  } finally {
    await worker.close();
  }
}

describe('the media reconciler', () => {
  it('leaves fresh videos and live jobs alone, retries a failed job, queues a lost one again, and counts each re-drive', async () => {
    const reconciler = h.app.get(MediaReconcilerService);
    const failed = await h.finalizedUpload();
    expect(await failNextJob()).toBe(failed.videoId);
    const lost = await h.finalizedUpload();
    await h.queue.remove(lost.videoId);
    const waiting = await h.finalizedUpload();
    const fresh = await h.finalizedUpload();
    await h.queue.remove(fresh.videoId);
    for (const v of [failed, lost, waiting]) await finalizedAgo(v.videoId, 3600);

    expect(await reconciler.reconcile()).toBe(2);
    expect(await h.queue.getJobState(failed.videoId)).toBe('waiting');
    expect((await h.queue.getJob(failed.videoId))!.attemptsMade).toBe(0);
    expect(await h.queue.getJobState(lost.videoId)).toBe('waiting');
    expect((await h.queue.getJob(lost.videoId))!.data).toMatchObject({
      videoId: lost.videoId,
      submissionId: lost.submissionId,
      sourceKey: `uploads/${lost.videoId}`,
      contentType: 'video/mp4',
    });
    expect(await h.queue.getJobState(waiting.videoId)).toBe('waiting');
    // Not stale yet: not looked at, even though its job is gone.
    expect(await h.queue.getJobState(fresh.videoId)).toBe('unknown');

    // A second round (or another replica) finds every stale job on its way: nothing more to do.
    expect(await reconciler.reconcile()).toBe(0);
    const metrics = await (await fetch(`${h.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/media_redrives_total\{action="retried",state="failed"[^}]*\} 1/);
    expect(metrics).toMatch(/media_redrives_total\{action="added",state="missing"[^}]*\} 1/);
    // Nothing about the submissions changed: the verdict lands through the inbox as usual.
    expect(await h.client.getSubmission({ id: failed.submissionId })).toMatchObject({ videoState: 'processing', isProcessing: true });
  });
});
