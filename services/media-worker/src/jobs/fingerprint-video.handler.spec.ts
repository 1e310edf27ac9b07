import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaKeys, type FingerprintVideoJob } from '@clipit/contracts';
import { InvalidMediaError, type ClipFingerprint } from '@clipit/media';
import { deterministicEventId } from '@clipit/service-kit';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import pino from 'pino';
import { FINGERPRINT_FAILED_REASON, FingerprintVideoHandler } from './fingerprint-video.handler.js';
import type { FingerprintEvent, FingerprintTools, ObjectStore, VideoJob } from './ports.js';

// One fingerprint-video job on fakes of storage, ffmpeg and NATS: what it states, when it gives up, and
// that a decided outcome survives a failed publication unchanged.

const FINGERPRINT: ClipFingerprint = { version: 1, frames: ['0123456789abcdef', 'fedcba9876543210'], audio: 'AAAA' };

class FakeJob implements VideoJob {
  id: string | undefined;
  data: FingerprintVideoJob;
  attemptsMade = 0;
  opts = { attempts: 3 };
  progress: unknown = 0;

  constructor() {
    const videoId = randomUUID();
    this.id = `fingerprint-${videoId}`;
    this.data = { videoId, submissionId: randomUUID(), videoKey: mediaKeys.video(videoId), correlationId: 'req-1' };
  }

  async updateProgress(value: object): Promise<void> {
    this.progress = value;
  }
}

function setup(opts: { stored?: boolean; fingerprint?: ClipFingerprint | Error; publishError?: Error } = {}) {
  const downloaded: string[] = [];
  const storage: Pick<ObjectStore, 'stat' | 'download'> = {
    stat: async (key) => (opts.stored === false ? undefined : { key, size: 10, contentType: 'video/mp4' }) as never,
    download: async (key, file) => {
      downloaded.push(key);
      await writeFile(file, 'served video');
    },
  };
  const tools: FingerprintTools = {
    fingerprint: jest.fn(async () => {
      if (opts.fingerprint instanceof Error) throw opts.fingerprint;
      return opts.fingerprint ?? FINGERPRINT;
    }),
  };
  const published: FingerprintEvent[] = [];
  const events = {
    publishEnvelope: jest.fn(async (event: FingerprintEvent) => {
      if (opts.publishError) throw opts.publishError;
      published.push(event);
    }),
  };
  return { storage, tools, events, published, downloaded };
}

describe('FingerprintVideoHandler', () => {
  let tmpRoot: string;
  const logger = pino({ level: 'silent' });
  const signal = new AbortController().signal;
  const handlerFor = (s: ReturnType<typeof setup>) =>
    new FingerprintVideoHandler({ storage: s.storage, tools: s.tools, events: s.events, logger, tmpRoot });

  beforeEach(async () => {
    tmpRoot = await mkdtemp(join(tmpdir(), 'clipit-fingerprint-spec-'));
  });
  afterEach(async () => {
    await rm(tmpRoot, { recursive: true, force: true });
  });

  it('fingerprints the served video and states media.fingerprinted under an id derived from the video id', async () => {
    const s = setup();
    const job = new FakeJob();
    const event = await handlerFor(s).process(job, signal);
    expect(s.downloaded).toEqual([job.data.videoKey]);
    expect(event).toMatchObject({
      id: deterministicEventId('media.fingerprinted', job.data.videoId),
      type: 'media.fingerprinted',
      correlationId: 'req-1',
      data: { videoId: job.data.videoId, submissionId: job.data.submissionId, fingerprint: FINGERPRINT },
    });
    expect(s.published).toEqual([event]);
    expect(await readdir(tmpRoot)).toEqual([]);
    // No sound track named by the job: the print looks for one itself.
    expect(s.tools.fingerprint).toHaveBeenCalledWith(expect.any(String), signal, undefined);
  });

  it('passes on what the job knows of the sound track, so a silent clip is printed in one ffmpeg run', async () => {
    const s = setup();
    const job = new FakeJob();
    job.data = { ...job.data, hasAudio: false };
    await handlerFor(s).process(job, signal);
    expect(s.tools.fingerprint).toHaveBeenCalledWith(expect.any(String), signal, false);
  });

  it('states a fingerprint that could not be made for a file ffmpeg cannot read', async () => {
    const s = setup({ fingerprint: new InvalidMediaError('no video stream') });
    const event = await handlerFor(s).process(new FakeJob(), signal);
    expect(event.data).toMatchObject({ fingerprint: null, reason: FINGERPRINT_FAILED_REASON });
  });

  it('retries while the served video is missing, and states it not made on the last attempt', async () => {
    const s = setup({ stored: false });
    const job = new FakeJob();
    await expect(handlerFor(s).process(job, signal)).rejects.toThrow(/not in storage/);
    expect(s.published).toEqual([]);
    job.attemptsMade = 2;
    const event = await handlerFor(s).process(job, signal);
    expect(event.data).toMatchObject({ fingerprint: null, reason: FINGERPRINT_FAILED_REASON });
  });

  it('keeps the decided outcome when NATS refuses it, and states that very event on the next run without fingerprinting again', async () => {
    const failing = setup({ publishError: new Error('nats: timeout') });
    const job = new FakeJob();
    await expect(handlerFor(failing).process(job, signal)).rejects.toThrow('nats: timeout');
    const s = setup();
    const again = await handlerFor(s).process(job, signal);
    expect(s.tools.fingerprint).not.toHaveBeenCalled();
    expect(s.published).toEqual([again]);
    expect(again.data.fingerprint).toEqual(FINGERPRINT);
  });

  it('states what an earlier run decided when BullMQ failed the job without running it', async () => {
    const s = setup();
    const job = new FakeJob();
    const event = await handlerFor(s).giveUp(job, 'job stalled more than allowable limit');
    expect(event?.data).toMatchObject({ fingerprint: null, reason: FINGERPRINT_FAILED_REASON });
    expect(await handlerFor(s).giveUp({ ...job, data: { nope: true } } as unknown as VideoJob, 'stalled')).toBeUndefined();
  });
});
