import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { mediaKeys, type FingerprintVideoJob, type MediaProcessedV1, type ProcessVideoJob } from '@clipit/contracts';
import { guideChecks, VIDEO_MESSAGES } from '@clipit/field-rules';
import { InvalidMediaError, MediaToolError, type ProbeResult, type WatermarkEstimate } from '@clipit/media';
import { deterministicEventId } from '@clipit/service-kit';
import { automock } from '@clipit/testing';
import pino from 'pino';
import {
  InvalidJobError,
  playbackIdFor,
  PROCESSING_FAILED_MESSAGE,
  ProcessVideoHandler,
  PublishFailedError,
  recordedEvent,
} from './process-video.handler.js';
import type { EventSink, FingerprintQueue, MediaEvent, ObjectStore, VideoJob, VideoTools } from './ports.js';

// The handler with every outside thing faked: storage in memory, ffmpeg (strict mocks) writing
// stand-in files, events collected. What is checked: which event, what is stored and deleted, and
// in which order.

const PROBE: ProbeResult = {
  durationSeconds: 10.04,
  width: 720,
  height: 1280,
  aspectRatio: '9:16',
  videoCodec: 'h264',
  videoProfile: 'High',
  videoLevel: 31,
  pixelFormat: 'yuv420p',
  audioCodec: 'aac',
  bitRate: 2_000_000,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  rotation: 0,
};

/** An upload no phone plays as it is. */
const HEVC: ProbeResult = { ...PROBE, videoCodec: 'hevc', videoProfile: 'Main', videoLevel: 93 };

/** What the one ffmpeg of poster, keyframes and remux answers as keyframes. */
const KEYFRAMES = new Uint8Array([1, 2, 3]);
const FOUND: WatermarkEstimate = { verdict: 'found', samples: 10, motion: 40, stillTopRight: 0.12, stillTopLeft: 0, stillRest: 0 };

class MemoryStore implements ObjectStore {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  constructor(private readonly steps: string[]) {}
  async stat(key: string) {
    const o = this.objects.get(key);
    return o && { key, size: o.body.length, contentType: o.contentType, lastModified: new Date(), etag: '"x"' };
  }
  async read(key: string) {
    const o = this.objects.get(key);
    if (!o) throw new Error(`no ${key}`);
    return Readable.from([o.body]);
  }
  async put(key: string, body: Buffer | Readable, contentType: string) {
    const bytes = Buffer.isBuffer(body) ? body : await buffer(body);
    this.objects.set(key, { body: bytes, contentType });
    this.steps.push(`put ${key}`);
    return { key, size: bytes.length, contentType };
  }
  async download(key: string, file: string, signal?: AbortSignal) {
    signal?.throwIfAborted();
    const o = this.objects.get(key);
    if (!o) throw new Error(`no ${key}`);
    await writeFile(file, o.body);
  }
  async upload(key: string, file: string, contentType: string) {
    return this.put(key, await readFile(file), contentType);
  }
  async delete(key: string) {
    this.objects.delete(key);
    this.steps.push(`delete ${key}`);
  }
}

function setup(
  opts: {
    /** Queueing the fingerprint job fails (Redis away). */
    fingerprintQueueError?: Error;
    probe?: ProbeResult | Error;
    transcodeError?: Error;
    remuxError?: Error;
    remuxedBitRate?: number;
    /** The one ffmpeg of poster, keyframes and remux fails (its steps then run apart). */
    prepareError?: Error;
    watermark?: WatermarkEstimate | Error;
    publishError?: Error;
  } = {},
) {
  const steps: string[] = [];
  const storage = new MemoryStore(steps);
  const published: MediaEvent[] = [];
  const workDirs: string[] = [];
  const tools = automock<VideoTools>('VideoTools', [
    'probe',
    'makePoster',
    'transcodeForWeb',
    'remuxForWeb',
    'prepareForWeb',
    'estimateWatermark',
  ]);
  tools.probe.mockImplementation(async (file) => {
    workDirs.push(join(file, '..'));
    steps.push('probe');
    if (opts.probe instanceof Error) throw opts.probe;
    return opts.probe ?? PROBE;
  });
  tools.makePoster.mockImplementation(async (_input, output) => {
    steps.push('poster');
    await writeFile(output, 'JPEG');
  });
  tools.transcodeForWeb.mockImplementation(async (_input, output) => {
    steps.push('transcode');
    if (opts.transcodeError) throw opts.transcodeError;
    await writeFile(output, 'MP4 bytes');
    return { ...PROBE, width: 606, height: 1080 };
  });
  tools.remuxForWeb.mockImplementation(async (_input, output) => {
    steps.push('remux');
    if (opts.remuxError) throw opts.remuxError;
    await writeFile(output, 'MP4 copy');
    return { bytes: 8, bitRate: opts.remuxedBitRate ?? PROBE.bitRate! };
  });
  tools.prepareForWeb.mockImplementation(async (_input, { posterFile, remuxFile }) => {
    steps.push('prepare');
    if (opts.prepareError) throw opts.prepareError;
    await writeFile(posterFile, 'JPEG');
    if (!remuxFile) return { keyframes: KEYFRAMES };
    if (opts.remuxError) throw opts.remuxError;
    await writeFile(remuxFile, 'MP4 copy');
    return { keyframes: KEYFRAMES, remux: { bytes: 8, bitRate: opts.remuxedBitRate ?? PROBE.bitRate! } };
  });
  tools.estimateWatermark.mockImplementation(async () => {
    steps.push('watermark');
    if (opts.watermark instanceof Error) throw opts.watermark;
    return opts.watermark ?? FOUND;
  });
  const events = automock<EventSink>('EventSink', ['publishEnvelope']);
  events.publishEnvelope.mockImplementation(async (envelope) => {
    steps.push(`publish ${envelope.type}`);
    if (opts.publishError) throw opts.publishError;
    published.push(envelope);
  });
  const queuedFingerprints: FingerprintVideoJob[] = [];
  const fingerprints: FingerprintQueue = {
    enqueue: async (job) => {
      steps.push(`queue fingerprint ${job.videoKey}`);
      if (opts.fingerprintQueueError) throw opts.fingerprintQueueError;
      queuedFingerprints.push(job);
    },
  };
  return { steps, storage, published, tools, events, workDirs, fingerprints, queuedFingerprints };
}

type UploadJob = ProcessVideoJob;

class FakeJob implements VideoJob {
  id: string | undefined;
  data: UploadJob;
  attemptsMade = 0;
  opts = { attempts: 3 };
  progress: unknown = 0;
  readonly progressUpdates: object[] = [];

  constructor(patch: Partial<VideoJob>) {
    const videoId = randomUUID();
    this.id = videoId;
    this.data = { videoId, submissionId: randomUUID(), sourceKey: mediaKeys.upload(videoId), contentType: 'video/mp4' };
    Object.assign(this, patch);
  }

  async updateProgress(value: object): Promise<void> {
    this.progress = value;
    this.progressUpdates.push(value);
  }
}

const makeJob = (patch: Partial<VideoJob> = {}) => new FakeJob(patch);

describe('ProcessVideoHandler', () => {
  let tmpRoot: string;
  const logger = pino({ level: 'silent' });
  const signal = new AbortController().signal;

  beforeEach(async () => {
    tmpRoot = await mkdtemp(join(tmpdir(), 'clipit-handler-spec-'));
  });
  afterEach(async () => {
    await rm(tmpRoot, { recursive: true, force: true });
  });

  const handlerFor = (s: ReturnType<typeof setup>) =>
    new ProcessVideoHandler({ storage: s.storage, tools: s.tools, events: s.events, fingerprints: s.fingerprints, logger, tmpRoot });
  const withUpload = (s: ReturnType<typeof setup>, job: ReturnType<typeof makeJob>, bytes = Buffer.from('source video')) => {
    s.storage.objects.set(job.data.sourceKey, { body: bytes, contentType: 'video/mp4' });
  };

  it("carries the finalizing request's correlation id from the job onto the event", async () => {
    const s = setup();
    const job = makeJob();
    job.data = { ...job.data, correlationId: 'req-7f3a' };
    withUpload(s, job);
    expect(await handlerFor(s).process(job, signal)).toMatchObject({ type: 'media.processed', correlationId: 'req-7f3a' });
    const tooLong = setup({ probe: { ...PROBE, durationSeconds: 41 } });
    const refused = makeJob();
    refused.data = { ...refused.data, correlationId: 'req-8b4c' };
    withUpload(tooLong, refused);
    expect(await handlerFor(tooLong).process(refused, signal)).toMatchObject({ type: 'media.failed', correlationId: 'req-8b4c' });
  });

  it('stores the poster and the web MP4, states media.processed, then deletes the upload', async () => {
    const s = setup({ probe: HEVC });
    const job = makeJob();
    withUpload(s, job);
    const event = await handlerFor(s).process(job, signal);

    const { videoId, submissionId } = job.data;
    expect(event).toMatchObject({
      id: deterministicEventId('media.processed', videoId),
      type: 'media.processed',
      source: 'media-worker',
      correlationId: `video:${videoId}`,
      data: {
        videoId,
        submissionId,
        durationSeconds: 10.04,
        width: 720,
        height: 1280,
        aspectRatio: '9:16',
        videoCodec: 'hevc',
        audioCodec: 'aac',
        video: { key: mediaKeys.video(videoId), contentType: 'video/mp4', size: 9 },
        poster: { key: mediaKeys.poster(videoId), contentType: 'image/jpeg', size: 4 },
        playbackId: playbackIdFor(videoId),
        processing: 'transcode',
      },
    });
    expect(s.tools.transcodeForWeb).toHaveBeenCalledWith(expect.any(String), expect.any(String), {
      maxLongSide: 1080,
      maxBitRate: 8_000_000,
      durationSeconds: expect.any(Number),
      signal,
    });
    expect(s.published).toEqual([event]);
    expect(s.steps).toEqual([
      'probe',
      'prepare',
      'transcode',
      'watermark',
      `put ${mediaKeys.video(videoId)}`,
      `put ${mediaKeys.poster(videoId)}`,
      'publish media.processed',
      // Fingerprinted in a job of its own, after the video plays (ADR 0048).
      `queue fingerprint ${mediaKeys.video(videoId)}`,
      `delete ${job.data.sourceKey}`,
    ]);
    expect(s.queuedFingerprints).toEqual([
      { videoId, submissionId: job.data.submissionId, videoKey: mediaKeys.video(videoId), hasAudio: true },
    ]);
    expect([...s.storage.objects.keys()].sort()).toEqual([mediaKeys.poster(videoId), mediaKeys.video(videoId)]);
    // Decided before publishing, so a crash after this point states the same event.
    expect(job.progressUpdates).toEqual([{ stage: 'decided', event }]);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('remuxes an upload that plays as it is, and states the guide checks with the outcome', async () => {
    const s = setup();
    const job = makeJob();
    withUpload(s, job);
    const event = await handlerFor(s).process(job, signal);
    // One ffmpeg made the poster, the keyframes and the remux; the estimate reads the keyframes it kept.
    expect(s.steps.slice(0, 3)).toEqual(['probe', 'prepare', 'watermark']);
    expect(s.steps).not.toContain('transcode');
    expect(s.tools.prepareForWeb).toHaveBeenCalledWith(expect.any(String), {
      posterFile: expect.stringMatching(/poster\.jpg$/),
      remuxFile: expect.stringMatching(/video\.mp4$/),
      durationSeconds: 10.04,
      maxLongSide: 1080,
      signal,
    });
    expect(s.tools.estimateWatermark).toHaveBeenCalledWith(expect.any(String), { signal, keyframes: KEYFRAMES });
    expect(s.tools.makePoster).not.toHaveBeenCalled();
    expect(s.tools.remuxForWeb).not.toHaveBeenCalled();
    expect(event.type).toBe('media.processed');
    const data = event.data as MediaProcessedV1;
    expect(data.processing).toBe('remux');
    expect(data.video).toEqual({ key: mediaKeys.video(job.data.videoId), contentType: 'video/mp4', size: 8 });
    expect(data.guideChecks).toEqual(guideChecks({ durationSeconds: 10.04, width: 720, height: 1280, hasAudio: true, watermark: 'found' }));
    expect(data.guideChecks!.map((check) => [check.rule, check.verdict])).toEqual([
      ['duration', 'warning'],
      ['portrait', 'pass'],
      ['width', 'pass'],
      ['audio', 'pass'],
      ['watermark', 'pass'],
    ]);
  });

  it('transcodes instead when the remux came out at the bit-rate cap', async () => {
    const s = setup({ probe: { ...PROBE, bitRate: 1_990_000 }, remuxedBitRate: 2_000_000 });
    const job = makeJob();
    withUpload(s, job);
    const handler = new ProcessVideoHandler({
      storage: s.storage,
      tools: s.tools,
      events: s.events,
      fingerprints: s.fingerprints,
      logger,
      tmpRoot,
      maxBitRate: 2_000_000,
    });
    const event = await handler.process(job, signal);
    expect(s.steps.filter((step) => step === 'prepare' || step === 'transcode')).toEqual(['prepare', 'transcode']);
    expect((event.data as MediaProcessedV1).processing).toBe('transcode');
    expect(s.tools.transcodeForWeb).toHaveBeenCalledWith(expect.any(String), expect.any(String), {
      maxLongSide: 1080,
      maxBitRate: 2_000_000,
      durationSeconds: expect.any(Number),
      signal,
    });
  });

  it('makes the poster and the remux one by one when their one ffmpeg fails, and the estimate reads frames itself', async () => {
    const s = setup({ prepareError: new MediaToolError('ffmpeg', 'ffmpeg exited with code 1') });
    const job = makeJob();
    withUpload(s, job);
    const event = await handlerFor(s).process(job, signal);
    expect(s.steps.slice(0, 5)).toEqual(['probe', 'prepare', 'remux', 'poster', 'watermark']);
    expect(event.type).toBe('media.processed');
    expect((event.data as MediaProcessedV1).processing).toBe('remux');
    expect(s.tools.estimateWatermark).toHaveBeenCalledWith(expect.any(String), { signal, keyframes: undefined });
  });

  it('says unsure about the watermark when the estimate fails, and processes the video all the same', async () => {
    const s = setup({ watermark: new MediaToolError('ffmpeg', 'ffmpeg exited with code 1') });
    const job = makeJob();
    withUpload(s, job);
    const event = await handlerFor(s).process(job, signal);
    expect((event.data as MediaProcessedV1).guideChecks!.at(-1)).toMatchObject({ rule: 'watermark', verdict: 'unsure' });
  });

  it('waits for the poster before cleaning up after a failed remux', async () => {
    const s = setup({ remuxError: new MediaToolError('ffmpeg', 'ffmpeg killed by SIGKILL') });
    let posterDone = false;
    s.tools.makePoster.mockImplementation(async (_input, output) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await writeFile(output, 'JPEG');
      posterDone = true;
    });
    const job = makeJob();
    withUpload(s, job);
    await expect(handlerFor(s).process(job, signal)).rejects.toThrow('SIGKILL');
    expect(posterDone).toBe(true);
    expect(s.published).toEqual([]);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('refuses a video longer than 40 s (floored) with the spec message, keeping nothing', async () => {
    const s = setup({ probe: { ...PROBE, durationSeconds: 45.2 } });
    const job = makeJob();
    withUpload(s, job);
    s.storage.objects.set(mediaKeys.video(job.data.videoId), { body: Buffer.from('left by an earlier attempt'), contentType: 'video/mp4' });
    const event = await handlerFor(s).process(job, signal);
    expect(event).toMatchObject({
      id: deterministicEventId('media.failed', job.data.videoId),
      type: 'media.failed',
      data: { code: 'too-long', reason: VIDEO_MESSAGES.tooLong(45.2) },
    });
    expect(event.type === 'media.failed' && event.data.reason).toBe(
      'Video Too Long: Video must be 40 seconds or less. Your video is 45 seconds.',
    );
    expect(s.tools.transcodeForWeb).not.toHaveBeenCalled();
    expect(s.storage.objects.size).toBe(0);
    expect(s.steps.indexOf('publish media.failed')).toBeLessThan(s.steps.indexOf(`delete ${job.data.sourceKey}`));
  });

  it('accepts 40.9 seconds (the spec floors the duration)', async () => {
    const s = setup({ probe: { ...PROBE, durationSeconds: 40.9 } });
    const job = makeJob();
    withUpload(s, job);
    expect(await handlerFor(s).process(job, signal)).toMatchObject({ type: 'media.processed' });
  });

  it('refuses a file that is not a readable video', async () => {
    const s = setup({ probe: new InvalidMediaError('not a readable media file') });
    const job = makeJob();
    withUpload(s, job);
    const event = await handlerFor(s).process(job, signal);
    expect(event).toMatchObject({ type: 'media.failed', data: { code: 'invalid', reason: VIDEO_MESSAGES.invalid } });
    expect(s.storage.objects.size).toBe(0);
  });

  it('refuses an upload over the size limit without downloading it', async () => {
    const s = setup();
    const job = makeJob();
    withUpload(s, job, Buffer.alloc(2048));
    const event = await new ProcessVideoHandler({
      storage: s.storage,
      tools: s.tools,
      events: s.events,
      fingerprints: s.fingerprints,
      logger,
      tmpRoot,
      maxBytes: 1024,
    }).process(job, signal);
    expect(event).toMatchObject({ type: 'media.failed', data: { code: 'too-large', reason: VIDEO_MESSAGES.tooLarge } });
    expect(s.tools.probe).not.toHaveBeenCalled();
  });

  it('throws a failure that may pass (so BullMQ retries), stating nothing and keeping the upload', async () => {
    const s = setup({ probe: HEVC, transcodeError: new MediaToolError('ffmpeg', 'ffmpeg killed by SIGKILL') });
    const job = makeJob({ attemptsMade: 1 });
    withUpload(s, job);
    await expect(handlerFor(s).process(job, signal)).rejects.toThrow('ffmpeg killed by SIGKILL');
    expect(s.published).toEqual([]);
    expect(job.progressUpdates).toEqual([]);
    expect(s.storage.objects.has(job.data.sourceKey)).toBe(true);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('states media.failed processing-error when the last attempt fails, and deletes the upload', async () => {
    const s = setup({ probe: HEVC, transcodeError: new MediaToolError('ffmpeg', 'ffmpeg exited with code 1') });
    const job = makeJob({ attemptsMade: 2 });
    withUpload(s, job);
    const event = await handlerFor(s).process(job, signal);
    expect(event).toMatchObject({ type: 'media.failed', data: { code: 'processing-error', reason: PROCESSING_FAILED_MESSAGE } });
    expect(s.storage.objects.size).toBe(0);
  });

  it('retries when the upload is not in storage yet', async () => {
    const s = setup();
    await expect(handlerFor(s).process(makeJob(), signal)).rejects.toThrow(/is not in storage/);
  });

  it('never gives up because of its own shutdown, even on the last attempt', async () => {
    const s = setup({ probe: HEVC, transcodeError: new MediaToolError('ffmpeg', 'ffmpeg aborted', { aborted: true }) });
    const job = makeJob({ attemptsMade: 2 });
    withUpload(s, job);
    const controller = new AbortController();
    controller.abort();
    await expect(handlerFor(s).process(job, controller.signal)).rejects.toThrow();
    expect(s.published).toEqual([]);
  });

  it('keeps the upload when the event could not be published, and states the same event next time', async () => {
    const failing = setup({ publishError: new Error('nats: timeout') });
    const job = makeJob();
    withUpload(failing, job);
    await expect(handlerFor(failing).process(job, signal)).rejects.toThrow('nats: timeout');
    expect(failing.storage.objects.has(job.data.sourceKey)).toBe(true);
    const decided = recordedEvent(job.progress);
    expect(decided?.type).toBe('media.processed');

    // The next run (same job, its progress kept in Redis) does no work and states that very event.
    const s = setup();
    const again = await handlerFor({ ...s, storage: failing.storage }).process(job, signal);
    expect(again).toEqual(decided);
    expect(s.tools.probe).not.toHaveBeenCalled();
    expect(s.published).toEqual([decided]);
    expect(failing.storage.objects.has(job.data.sourceKey)).toBe(false);
  });

  it('is retried, keeping the upload, when the fingerprint job cannot be queued; the next run states the same event and queues it', async () => {
    const failing = setup({ fingerprintQueueError: new Error('redis: connection is closed') });
    const job = makeJob();
    withUpload(failing, job);
    await expect(handlerFor(failing).process(job, signal)).rejects.toThrow('redis: connection is closed');
    expect(failing.published).toHaveLength(1);
    expect(failing.storage.objects.has(job.data.sourceKey)).toBe(true);

    const s = setup();
    const again = await handlerFor({ ...s, storage: failing.storage }).process(job, signal);
    expect(again).toEqual(failing.published[0]);
    expect(s.tools.probe).not.toHaveBeenCalled();
    expect(s.queuedFingerprints).toEqual([
      expect.objectContaining({ videoId: job.data.videoId, videoKey: mediaKeys.video(job.data.videoId) }),
    ]);
    expect(failing.storage.objects.has(job.data.sourceKey)).toBe(false);
  });

  it('queues no fingerprint for a refused video', async () => {
    const s = setup({ probe: { ...PROBE, durationSeconds: 41 } });
    const job = makeJob();
    withUpload(s, job);
    expect((await handlerFor(s).process(job, signal)).type).toBe('media.failed');
    expect(s.queuedFingerprints).toEqual([]);
  });

  it('counts failed publications in the job, keeping the decided event as it was and deciding nothing again', async () => {
    const failing = setup({ publishError: new Error('nats: timeout') });
    const job = makeJob();
    withUpload(failing, job);
    const first = await handlerFor(failing)
      .process(job, signal)
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PublishFailedError);
    expect(first).toMatchObject({ failures: 1, event: { type: 'media.processed' } });
    const decided = recordedEvent(job.progress)!;
    const second = await handlerFor(failing)
      .process(job, signal)
      .catch((e: unknown) => e);
    expect(second).toMatchObject({ failures: 2, event: decided });
    expect(job.progress).toEqual({ stage: 'decided', event: decided, publishFailures: 2 });
    // ffmpeg ran for the first run only; the upload is kept until the event is stored.
    expect(failing.tools.prepareForWeb).toHaveBeenCalledTimes(1);
    expect(failing.storage.objects.has(job.data.sourceKey)).toBe(true);
  });

  it('refuses job data that is not a process-video job', async () => {
    const s = setup();
    await expect(handlerFor(s).process(makeJob({ data: { videoId: 'nope' } }), signal)).rejects.toThrow(InvalidJobError);
  });

  describe('giveUp (a job BullMQ failed without running it)', () => {
    it('states processing-error and cleans up', async () => {
      const s = setup();
      const job = makeJob();
      withUpload(s, job);
      const event = await handlerFor(s).giveUp(job, 'job stalled more than allowable limit');
      expect(event).toMatchObject({ type: 'media.failed', data: { code: 'processing-error' } });
      expect(s.storage.objects.size).toBe(0);
    });

    it('states what an earlier run decided, if anything', async () => {
      const failing = setup({ publishError: new Error('down') });
      const job = makeJob();
      withUpload(failing, job);
      await expect(handlerFor(failing).process(job, signal)).rejects.toThrow('down');
      const decided = recordedEvent(job.progress)!;
      expect(decided.type).toBe('media.processed');
      const s = setup();
      expect(await handlerFor(s).giveUp(job, 'job stalled more than allowable limit')).toEqual(decided);
      expect(s.published).toEqual([decided]);
    });

    it('keeps its outcome in the job when it cannot publish it, for a later retry of the job to state', async () => {
      const s = setup({ publishError: new Error('nats: connection closed') });
      const job = makeJob();
      withUpload(s, job);
      await expect(handlerFor(s).giveUp(job, 'job stalled more than allowable limit')).rejects.toThrow(PublishFailedError);
      expect(recordedEvent(job.progress)).toMatchObject({ type: 'media.failed', data: { code: 'processing-error' } });
      expect(s.storage.objects.has(job.data.sourceKey)).toBe(true);
    });

    it('does nothing for unusable data', async () => {
      const s = setup();
      expect(await handlerFor(s).giveUp(makeJob({ data: {} }), 'x')).toBeUndefined();
      expect(s.published).toEqual([]);
    });
  });

  it('derives a stable playback id that does not reveal the video id', () => {
    const videoId = randomUUID();
    expect(playbackIdFor(videoId)).toBe(playbackIdFor(videoId));
    expect(playbackIdFor(videoId)).toMatch(/^[0-9a-f]{32}$/);
    expect(playbackIdFor(videoId)).not.toContain(videoId.slice(0, 8));
  });
});
