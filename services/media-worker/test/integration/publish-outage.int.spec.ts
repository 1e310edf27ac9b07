// The worker against a private NATS (libs/testing's fault harness) killed while a job is decided:
// the outage (NATS down for a minute while a video was processed), shortened with a short
// publish timeout and backoff. The old worker spent the job's three attempts on publish timeouts,
// failed it for good and the video was never shown. Now the job waits, keeps its verdict and
// publishes it once NATS is back: no failure, no second remux or transcode, the upload deleted only after.
import { jest } from '@jest/globals';
import { startNatsServer, waitFor, type PrivateServer } from '@clipit/testing';
import { PROCESS_VIDEO_JOB_OPTIONS } from '@clipit/media-queue';
import type { MediaWorkerApp } from '../../src/app.js';
import { recordedEvent } from '../../src/jobs/process-video.handler.js';
import type { VideoTools } from '../../src/jobs/ports.js';
import { MEDIA_TOOLS } from '../../src/media-worker.tokens.js';
import { MediaWorkerHarness } from '../support/worker-harness.js';

describe('media worker: NATS down when a job has decided (private NATS, real Redis and ffmpeg)', () => {
  let nats: PrivateServer;
  let h: MediaWorkerHarness;
  let worker: MediaWorkerApp;
  let transcode: jest.SpiedFunction<VideoTools['transcodeForWeb']>;
  let remux: jest.SpiedFunction<VideoTools['remuxForWeb']>;
  let prepare: jest.SpiedFunction<VideoTools['prepareForWeb']>;
  /** How many times a served video was made (the clip plays as it is: by a remux, in the one ffmpeg that also makes the poster). */
  const videosMade = () =>
    transcode.mock.calls.length + remux.mock.calls.length + prepare.mock.calls.filter(([, opts]) => opts.remuxFile !== undefined).length;

  beforeAll(async () => {
    nats = await startNatsServer();
    h = await new MediaWorkerHarness(nats.url).start();
    // Real world: 5 s timeout, 2 s … 30 s between tries. Here fractions of that, same behaviour.
    worker = await h.startWorker({
      MEDIA_WORKER_PUBLISH_TIMEOUT_MS: 300,
      MEDIA_WORKER_PUBLISH_RETRY_MIN_MS: 100,
      MEDIA_WORKER_PUBLISH_RETRY_MAX_MS: 400,
      LOG_LEVEL: 'error',
    });
    transcode = jest.spyOn(worker.get<VideoTools>(MEDIA_TOOLS), 'transcodeForWeb');
    remux = jest.spyOn(worker.get<VideoTools>(MEDIA_TOOLS), 'remuxForWeb');
    prepare = jest.spyOn(worker.get<VideoTools>(MEDIA_TOOLS), 'prepareForWeb');
  });

  afterAll(async () => {
    if (nats && nats.process.state !== 'running') await nats.process.start();
    await h?.stop();
    await nats?.close();
  });

  it('keeps the job (no attempt used, no new video made) until NATS takes the event, then completes it and deletes the upload', async () => {
    await nats.process.kill();
    const job = await h.submitClip({ durationSeconds: 2, width: 180, height: 320, withAudio: false, fps: 5 });

    // Decided, and its publication failed more times than the job has attempts: the old worker would have failed it by now.
    const decided = await waitFor(
      async () => {
        const j = await h.queue.getJob(job.videoId);
        const progress = j?.progress as { publishFailures?: number } | undefined;
        return (progress?.publishFailures ?? 0) > PROCESS_VIDEO_JOB_OPTIONS.attempts ? j : undefined;
      },
      20_000,
      'the decided event to fail publishing more often than the job has attempts',
    );
    expect(recordedEvent(decided.progress)).toMatchObject({ type: 'media.processed', data: { videoId: job.videoId } });
    expect(decided.attemptsMade).toBe(0);
    expect(['delayed', 'active', 'waiting']).toContain(await decided.getState());
    expect(videosMade()).toBe(1);
    // The results are stored, the upload kept until the event is.
    expect(await h.outputsOf(job.videoId)).toEqual(['poster.jpg', 'video.mp4']);
    expect(await h.storage.stat(job.sourceKey)).toBeDefined();
    // Not ready while it cannot state outcomes.
    const ready = await fetch(`http://127.0.0.1:${worker.httpPort}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks['nats']).toMatch(/^down/);

    await nats.process.start();
    const completed = await waitFor(
      async () => ((await h.queue.getJobState(job.videoId)) === 'completed' ? true : undefined),
      20_000,
      'the job to complete once NATS is back',
    );
    expect(completed).toBe(true);
    const done = (await h.queue.getJob(job.videoId))!;
    expect(done.attemptsMade).toBe(1);
    expect(done.returnvalue).toMatchObject({ eventId: recordedEvent(decided.progress)!.id });
    // Stored once (the harness's own connection may still be reconnecting: asked until it answers).
    expect(
      await waitFor(() => h.storedEventCount(job.videoId, 'media.processed').catch(() => undefined), 10_000, 'the stream to answer'),
    ).toBe(1);
    expect(await h.storage.stat(job.sourceKey)).toBeUndefined();
    expect(videosMade()).toBe(1);
    await waitFor(
      async () => ((await fetch(`http://127.0.0.1:${worker.httpPort}/health/ready`)).status === 200 ? true : undefined),
      10_000,
      'ready again',
    );
  });
});
