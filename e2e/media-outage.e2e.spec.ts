// Issue 11, point 1, as found: sign up, create a submission, get an upload URL, PUT a 10 s 720x1280
// clip, stop NATS, finalize (200), keep NATS down, start it again with the same store. The media
// worker processed the video while NATS was down; before the fix it spent the job's three attempts
// timing out on the publish of media.processed, failed the job for good, and the submission stayed
// processing forever (never shown, still counting toward the daily limit).
//
// The platform runs on a private NATS (libs/testing's fault harness) and the shared Postgres and Redis.
// In the real world NATS was down for 60 s with a 5 s publish timeout; here the worker's publish
// timeout and backoff are shortened by configuration, and NATS stays down until the worker has
// failed to publish more often than the job has attempts, which is when the old worker gave up.
import { createMediaQueue, MEDIA_QUEUE, mediaQueuePrefix, PROCESS_VIDEO_JOB_OPTIONS, type MediaQueue } from '@clipit/media-queue';
import { synthesizeClip } from '@clipit/media';
import { startNatsServer, testInfra, waitFor, type PrivateServer } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UnrecoverableError, Worker } from 'bullmq';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUp } from './support/accounts.js';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';

interface SubmissionJson {
  id: string;
  hasVideo: 'true' | 'false';
  isProcessing: boolean;
  videoState: string;
  videoUrl: string | null;
}

const TIMEOUT_MS = 90_000;

describe('media pipeline outages (private NATS)', () => {
  let nats: PrivateServer;
  let p: Platform;
  let queue: MediaQueue;
  let clipsDir: string;
  let clip: string;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const json = (method: string, body: unknown, cookie: string): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    clipsDir = await mkdtemp(join(tmpdir(), 'clipit-e2e-outage-'));
    clip = join(clipsDir, 'ten-seconds.mp4');
    // The clip: 10 s, 720x1280, with sound; few frames keep the transcode quick.
    await synthesizeClip({ path: clip, durationSeconds: 10, width: 720, height: 1280, withAudio: true, fps: 10 });
    nats = await startNatsServer();
    p = await startPlatform(
      {},
      {
        NATS_URL: nats.url,
        // Real world: 5 s timeout, 2 s … 30 s between tries; 60 s and 600 s for the reconciler.
        MEDIA_WORKER_PUBLISH_TIMEOUT_MS: '300',
        MEDIA_WORKER_PUBLISH_RETRY_MIN_MS: '100',
        MEDIA_WORKER_PUBLISH_RETRY_MAX_MS: '500',
        MEDIA_RECONCILE_INTERVAL_SECONDS: '1',
        MEDIA_PROCESSING_STALE_SECONDS: '4',
        LOG_LEVEL: 'error',
      },
      { mediaWorker: true },
    );
    queue = createMediaQueue({ connection: { url: testInfra().redisUrl }, prefix: p.names.redisKeyPrefix });
  }, 60_000);

  afterAll(async () => {
    if (nats && nats.process.state !== 'running') await nats.process.start();
    await queue?.close();
    await p?.stop();
    await nats?.close();
    if (clipsDir) await rm(clipsDir, { recursive: true, force: true });
  });

  const clipper = async (): Promise<string> => (await signUp(p.url, { prefix: 'mo' })).cookie;

  /** A submission with the clip PUT through its upload URL, not finalized yet. */
  async function uploaded(cookie: string): Promise<{ id: string; videoId: string }> {
    const url = `https://x.com/clipper/status/${Date.now()}${randomBytes(2).readUInt16BE()}`;
    const created = await api(
      '/api/submissions',
      json('POST', { name: 'Outage clip', url, walletAddress: 'pending', additionalInfo: null, tokenId: null }, cookie),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const urlRes = await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, cookie));
    expect(urlRes.status).toBe(200);
    const { uploadUrl, videoId } = (await urlRes.json()) as { uploadUrl: string; videoId: string };
    const put = await api(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: await readFile(clip) });
    expect(put.status).toBe(200);
    return { id, videoId };
  }

  async function finalize(cookie: string, id: string, videoId: string): Promise<void> {
    const fin = await api('/api/submissions/finalize-video-upload', json('POST', { submissionId: id, videoId }, cookie));
    expect(fin.status).toBe(200);
    expect(await fin.json()).toMatchObject({ id, isProcessing: true, videoState: 'processing' });
  }

  /** The submission as its owner lists it, once it is no longer processing. */
  function settled(cookie: string, id: string): Promise<SubmissionJson> {
    return waitFor(
      async () => {
        const list = (await (await api('/api/submissions', { headers: { cookie } })).json()) as SubmissionJson[];
        const found = list.find((s) => s.id === id);
        return found && !found.isProcessing ? found : undefined;
      },
      60_000,
      `submission ${id} to leave processing`,
    );
  }

  const shown = {
    hasVideo: 'true',
    isProcessing: false,
    videoState: 'ready',
    videoUrl: expect.stringMatching(/^\/media\/videos\/[\w-]+\/video\.mp4$/),
  };

  it(
    'NATS down from finalize until after the worker processed the clip: once NATS is back the video is shown',
    async () => {
      const cookie = await clipper();
      const { id, videoId } = await uploaded(cookie);
      await nats.process.kill();
      await finalize(cookie, id, videoId);

      // Processed, and its publication failed more often than the job has attempts: the old worker had failed the job by now.
      await waitFor(
        async () => {
          const progress = (await queue.getJob(videoId))?.progress as { stage?: string; publishFailures?: number } | undefined;
          return progress?.stage === 'decided' && (progress.publishFailures ?? 0) > PROCESS_VIDEO_JOB_OPTIONS.attempts ? true : undefined;
        },
        45_000,
        'the worker to fail publishing its verdict more often than the job has attempts',
      );
      const job = (await queue.getJob(videoId))!;
      expect(job.attemptsMade).toBe(0);
      expect(await job.getState()).not.toBe('failed');

      await nats.process.start();
      const s = await settled(cookie, id);
      expect(s).toMatchObject(shown);
      const media = await api(s.videoUrl!);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('video/mp4');
    },
    TIMEOUT_MS,
  );

  it(
    'a video stuck in processing whose job failed is re-driven by the reconciler and ends shown',
    async () => {
      // The first test's jobs done first (its video's fingerprint, or a re-drive the reconciler queued while NATS was
      // down): the job taken by hand below must be this test's, the only one in the queue.
      await waitFor(
        async () => {
          const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed');
          return Object.values(counts).every((n) => n === 0) ? true : undefined;
        },
        45_000,
        'the media queue to be empty of the first test’s jobs',
      );
      // No worker while the job is failed by hand (as the old worker failed it), so none takes it first.
      await p.mediaWorker!.close();
      const cookie = await clipper();
      const { id, videoId } = await uploaded(cookie);
      await finalize(cookie, id, videoId);
      const taker = new Worker(MEDIA_QUEUE, null, {
        connection: { url: testInfra().redisUrl, maxRetriesPerRequest: null },
        prefix: mediaQueuePrefix(p.names.redisKeyPrefix),
        autorun: false,
      });
      try {
        const token = randomUUID();
        const taken = await taker.getNextJob(token);
        expect(taken?.id).toBe(videoId);
        await taken!.moveToFailed(new UnrecoverableError('nats: timeout'), token);
      } finally {
        await taker.close();
      }
      expect(await queue.getJobState(videoId)).toBe('failed');

      await p.startMediaWorker();
      const s = await settled(cookie, id);
      expect(s).toMatchObject(shown);
      const metrics = await (await fetch(`http://127.0.0.1:${p.submissions.httpPort}/metrics`)).text();
      expect(metrics).toMatch(/media_redrives_total\{action="retried",state="failed"[^}]*\} [1-9]/);
    },
    TIMEOUT_MS,
  );
});
