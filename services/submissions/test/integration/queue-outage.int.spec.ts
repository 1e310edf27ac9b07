import { status } from '@grpc/grpc-js';
import { testInfra, waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rejected, SMALL_VIDEO, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';
import { TcpProxy } from '../support/tcp-proxy.js';

// Redis going away under a running service: submissions reaches Redis through a relay the test
// controls, so its media queue's connection really breaks and comes back, with nothing in the service
// replaced. The harness reads the queue past the relay, straight from Redis.

let h: SubmissionsHarness;
let redis: TcpProxy;

/** A relay to the run's Redis. */
function relayToRedis(): Promise<TcpProxy> {
  const { hostname, port } = new URL(testInfra().redisUrl);
  return TcpProxy.start({ host: hostname, port: Number(port || 6379) });
}

beforeAll(async () => {
  redis = await relayToRedis();
  h = await startSubmissions({ REDIS_URL: redis.redisUrl });
});

afterAll(async () => {
  await h?.stop();
  await redis?.close();
});

/** /health/ready: its status, and what it says of the media queue's Redis. */
const readiness = async (httpUrl = h.httpUrl) => {
  const res = await fetch(`${httpUrl}/health/ready`);
  return { status: res.status, redis: ((await res.json()) as { checks: Record<string, string> }).checks['redis'] };
};
const readinessIs =
  (status: number, httpUrl = h.httpUrl) =>
  async () =>
    (await readiness(httpUrl)).status === status ? true : undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the media queue’s Redis going away', () => {
  it('finalize answers UNAVAILABLE and puts the upload back, so finalizing again once Redis is back works', async () => {
    const { userId, submission, upload } = await h.withUploadUrl();
    await h.storage.put(upload.storageKey, SMALL_VIDEO, 'video/mp4');
    // Ready, Redis included (the launcher and Kubernetes wait for this).
    expect(await readiness()).toEqual({ status: 200, redis: 'ok' });
    const finalize = () => h.client.finalizeVideoUpload({ userId, submissionId: submission.id, videoId: upload.videoId });

    redis.refuse();
    await waitFor(readinessIs(503), 10_000, '/health/ready to report Redis down');
    const err = await rejected(finalize());
    // Marked as the service's own answer (not a transport failure), so the gateway shows its words.
    expect({ code: err.code, message: err.message, fromDomain: err.fromDomain }).toEqual({
      code: status.UNAVAILABLE,
      message: 'Video processing is unavailable right now; please try again in a minute',
      fromDomain: true,
    });

    // Nothing will process it, so it is not processing: back to waiting for its finalize, object kept.
    expect(await h.queue.getJob(upload.videoId)).toBeUndefined();
    expect(await h.client.getSubmission({ id: submission.id })).toMatchObject({
      videoState: 'awaiting-upload',
      isProcessing: false,
      hasVideo: false,
    });
    expect(await h.rows('SELECT status, finalized_at FROM video_uploads WHERE id = $1', [upload.videoId])).toEqual([
      { status: 'awaiting-upload', finalized_at: null },
    ]);
    expect(await h.storage.stat(upload.storageKey)).toMatchObject({ size: SMALL_VIDEO.length });
    // Read models were told both moves (processing, then back), in order.
    const states = await h.rows<{ state: string }>(
      `SELECT envelope->'data'->'submission'->>'videoState' AS state FROM outbox
        WHERE type = 'submission.video-changed' AND envelope->'data'->'submission'->>'id' = $1 ORDER BY seq`,
      [submission.id],
    );
    expect(states.map((r) => r.state)).toEqual(['processing', 'awaiting-upload']);
    // The refused attempt does not count against the daily limit: no upload is processing or ready.
    expect(await h.count(`SELECT count(*) FROM video_uploads WHERE user_id = $1 AND status IN ('processing', 'ready')`, [userId])).toBe(0);

    redis.restore();
    await waitFor(readinessIs(200), 30_000, '/health/ready to report Redis back');
    // Ready means the queue's own connection is back too (BullMQ reconnects on its own schedule, after
    // the check's connection): the first finalize from then on goes through.
    const retried = await finalize();
    expect(retried).toMatchObject({ id: submission.id, videoState: 'processing', isProcessing: true });
    const job = await h.queue.getJob(upload.videoId);
    expect(job?.data).toMatchObject({ videoId: upload.videoId, submissionId: submission.id, sourceKey: upload.storageKey });
    expect(await h.queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('stops cleanly while Redis is unreachable: no connection is left trying to reconnect', async () => {
    const relay = await relayToRedis();
    const other = await startSubmissions({ REDIS_URL: relay.redisUrl });
    try {
      relay.refuse();
      await waitFor(readinessIs(503, other.httpUrl), 10_000, '/health/ready to report Redis down');
      // Its Redis clients are reconnecting now (BullMQ's about once a second): closing must stop them.
      await other.app.close();
      await sleep(200);
      const attemptsAtClose = relay.attempts;
      await sleep(3500);
      expect(relay.attempts - attemptsAtClose).toBe(0);
    } finally {
      await other.stop();
      await relay.close();
    }
  });
});
