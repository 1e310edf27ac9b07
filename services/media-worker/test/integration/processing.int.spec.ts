// The media worker in this process against the real Redis (BullMQ), NATS JetStream, ffmpeg and a
// filesystem storage folder: what it makes of a good clip, a long one and a file that is no video.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaKeys } from '@clipit/contracts';
import { VIDEO_MESSAGES } from '@clipit/field-rules';
import { probe } from '@clipit/media';
import { deterministicEventId } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import type { MediaWorkerApp } from '../../src/app.js';
import { MediaWorkerHarness } from '../support/worker-harness.js';

/** Top-level MP4 box types in file order. */
async function topLevelBoxes(file: string): Promise<string[]> {
  const buf = await readFile(file);
  const types: string[] = [];
  for (let offset = 0; offset + 8 <= buf.length;) {
    let size = buf.readUInt32BE(offset);
    types.push(buf.toString('latin1', offset + 4, offset + 8));
    if (size === 1) size = Number(buf.readBigUInt64BE(offset + 8));
    if (size < 8) break;
    offset += size;
  }
  return types;
}

describe('media worker: one job at a time (real Redis, JetStream, ffmpeg, fs storage)', () => {
  const h = new MediaWorkerHarness();
  let worker: MediaWorkerApp;

  beforeAll(async () => {
    await h.start();
    worker = await h.startWorker();
  });

  afterAll(async () => {
    await h.stop();
  });

  it('turns a 10 s 720x1280 clip into media.processed with the measured numbers and playable objects, then deletes the upload', async () => {
    const job = await h.submitClip({ durationSeconds: 10, width: 720, height: 1280, withAudio: true, fps: 15 });
    const { envelope, msgId, subject } = await h.waitForEvent(job.videoId);

    expect(subject).toBe(`${h.names.subjectPrefix}.media-worker.media.processed.v1`);
    expect(msgId).toBe(envelope.id);
    expect(envelope.id).toBe(deterministicEventId('media.processed', job.videoId));
    expect(envelope).toMatchObject({
      type: 'media.processed',
      source: 'media-worker',
      data: {
        videoId: job.videoId,
        submissionId: job.submissionId,
        width: 720,
        height: 1280,
        aspectRatio: '9:16',
        videoCodec: 'h264',
        audioCodec: 'aac',
        video: { key: mediaKeys.video(job.videoId), contentType: 'video/mp4' },
        poster: { key: mediaKeys.poster(job.videoId), contentType: 'image/jpeg' },
        playbackId: expect.stringMatching(/^[0-9a-f]{32}$/),
        // H.264 in yuv420p with AAC, 720x1280, well under the cap: it plays as it is.
        processing: 'remux',
        guideChecks: [
          { rule: 'duration', verdict: 'warning', message: '10 seconds long: the guide asks for at least 15 seconds.' },
          { rule: 'portrait', verdict: 'pass', message: 'Portrait 9:16.' },
          { rule: 'width', verdict: 'pass', message: '720 px wide: at least 720.' },
          { rule: 'audio', verdict: 'pass', message: 'Has sound.' },
          // The test card barely moves.
          { rule: 'watermark', verdict: 'unsure', message: expect.any(String) },
        ],
      },
    });
    if (envelope.type !== 'media.processed') throw new Error('unreachable');
    expect(envelope.data.durationSeconds).toBeGreaterThanOrEqual(10);
    expect(envelope.data.durationSeconds).toBeLessThan(10.2);

    // The objects are what the event says, and play in a browser: the upload's own H.264/AAC, index first.
    const videoFile = join(h.storageRoot, mediaKeys.video(job.videoId));
    expect((await h.storage.stat(mediaKeys.video(job.videoId)))?.size).toBe(envelope.data.video.size);
    expect((await h.storage.stat(mediaKeys.poster(job.videoId)))?.size).toBe(envelope.data.poster.size);
    expect(await probe(videoFile)).toMatchObject({ width: 720, height: 1280, videoCodec: 'h264', audioCodec: 'aac' });
    const boxes = await topLevelBoxes(videoFile);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect([...(await readFile(join(h.storageRoot, mediaKeys.poster(job.videoId)))).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    // Then its fingerprint (ADR 0048), from the served video in a job of its own: frame hashes, and the sound's
    // print or null (the test tone is too plain to print).
    const fingerprinted = await h.waitForFingerprint(job.videoId);
    expect(fingerprinted.envelope).toMatchObject({
      type: 'media.fingerprinted',
      correlationId: `video:${job.videoId}`,
      data: { videoId: job.videoId, submissionId: job.submissionId, fingerprint: { version: 1, frames: expect.any(Array) } },
    });
    if (fingerprinted.envelope.type !== 'media.fingerprinted') throw new Error('unreachable');
    expect(fingerprinted.envelope.data.fingerprint!.frames.length).toBeGreaterThan(0);

    // The upload is gone (deleted once the event was stored), and so is every scratch folder.
    await waitFor(async () => ((await h.storage.stat(job.sourceKey)) === undefined ? true : undefined), 5000, 'upload deleted');
    await waitFor(async () => ((await h.scratchEntries()).length === 0 ? true : undefined), 5000, 'scratch folders removed');
    const finished = await waitFor(
      async () => ((await h.queue.getJob(job.videoId))?.finishedOn ? h.queue.getJob(job.videoId) : undefined),
      5000,
      'job completed',
    );
    expect(await finished!.getState()).toBe('completed');
    expect(finished!.returnvalue).toEqual({ eventId: envelope.id, playbackId: envelope.data.playbackId });
  });

  it('transcodes a VP9/Opus WebM into H.264/AAC, long side 1080, under the bit-rate cap', async () => {
    const job = await h.submitClip(
      {
        durationSeconds: 2,
        width: 720,
        height: 1280,
        withAudio: true,
        fps: 15,
        pattern: 'moving',
        watermark: 'top-right',
        keyframeSeconds: 0.5,
        video: { codec: 'vp9' },
        audioCodec: 'opus',
        container: 'webm',
      },
      'video/webm',
    );
    const { envelope } = await h.waitForEvent(job.videoId);
    if (envelope.type !== 'media.processed') throw new Error(`expected media.processed, got ${envelope.type}`);
    expect(envelope.data).toMatchObject({ processing: 'transcode', videoCodec: 'vp9', audioCodec: 'opus', width: 720, height: 1280 });
    expect(envelope.data.guideChecks?.find((check) => check.rule === 'watermark')?.verdict).toBe('pass');
    const served = await probe(join(h.storageRoot, mediaKeys.video(job.videoId)));
    expect(served).toMatchObject({ width: 606, height: 1080, videoCodec: 'h264', audioCodec: 'aac', pixelFormat: 'yuv420p' });
    expect(served.bitRate!).toBeLessThan(8_000_000);
  });

  it('refuses a 45 s clip with media.failed too-long, leaving nothing behind and without retrying', async () => {
    const job = await h.submitClip({ durationSeconds: 45, width: 360, height: 640, withAudio: false, fps: 5 });
    const { envelope } = await h.waitForEvent(job.videoId);
    expect(envelope).toMatchObject({
      id: deterministicEventId('media.failed', job.videoId),
      type: 'media.failed',
      data: { videoId: job.videoId, submissionId: job.submissionId, code: 'too-long', reason: VIDEO_MESSAGES.tooLong(45) },
    });
    expect(envelope.data).toMatchObject({ reason: 'Video Too Long: Video must be 40 seconds or less. Your video is 45 seconds.' });
    await waitFor(async () => ((await h.storage.stat(job.sourceKey)) === undefined ? true : undefined), 5000, 'upload deleted');
    expect(await h.outputsOf(job.videoId)).toEqual([]);
    const failed = await waitFor(
      async () => ((await h.queue.getJob(job.videoId))?.finishedOn ? h.queue.getJob(job.videoId) : undefined),
      5000,
      'job failed',
    );
    expect(await failed!.getState()).toBe('failed');
    expect(failed!.attemptsMade).toBe(1);
  });

  it('refuses a text file renamed .mp4 with media.failed invalid', async () => {
    const path = join(h.clipsDir, 'notes.mp4');
    await writeFile(path, 'This is a shopping list, not a clip.\n'.repeat(100));
    const job = await h.submitFile(path, 'video/mp4');
    const { envelope } = await h.waitForEvent(job.videoId);
    expect(envelope).toMatchObject({
      type: 'media.failed',
      data: { videoId: job.videoId, code: 'invalid', reason: VIDEO_MESSAGES.invalid },
    });
    await waitFor(async () => ((await h.storage.stat(job.sourceKey)) === undefined ? true : undefined), 5000, 'upload deleted');
    expect(await h.outputsOf(job.videoId)).toEqual([]);
    expect(await h.scratchEntries()).toEqual([]);
  });

  it('states each outcome once, and serves health and metrics', async () => {
    // One verdict per video, and one fingerprint per processed video.
    for (const e of h.events)
      expect(h.eventsFor(e.envelope.data.videoId).filter((other) => other.envelope.type === e.envelope.type)).toHaveLength(1);
    const ready = await fetch(`http://127.0.0.1:${worker.httpPort}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { nats: 'ok', redis: 'ok', worker: 'ok', ffmpeg: 'ok' } });
    const metrics = await (await fetch(`http://127.0.0.1:${worker.httpPort}/metrics`)).text();
    expect(metrics).toMatch(/media_jobs_total\{result="processed"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/media_jobs_total\{result="fingerprinted"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/media_jobs_total\{result="too-long"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/media_jobs_total\{result="invalid"[^}]*\} [1-9]/);
    expect(metrics).toContain('media_job_duration_seconds_bucket');
  });
});
