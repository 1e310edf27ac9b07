import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  mediaKeys,
  type EventEnvelope,
  type MediaFailedV1,
  type MediaFingerprintedV1,
  type MediaProcessedV1,
  type ProcessVideoJob,
} from '@clipit/contracts';
import { synthesizeClip, type SynthesizeClipSpec } from '@clipit/media';
import { createMediaQueue, enqueueProcessVideo, type MediaQueue } from '@clipit/media-queue';
import { FsStorageDriver } from '@clipit/storage';
import { WorkerHarness, testInfra, type ReceivedEvent as Received, type WorkerProcess } from '@clipit/testing';
import { bootstrapMediaWorker, type MediaWorkerApp, type MediaWorkerConfigOverrides } from '../../src/app.js';

export type MediaEventEnvelope =
  | EventEnvelope<'media.processed', MediaProcessedV1>
  | EventEnvelope<'media.failed', MediaFailedV1>
  | EventEnvelope<'media.fingerprinted', MediaFingerprintedV1>;
export type ReceivedEvent = Received<MediaEventEnvelope>;
export type { WorkerProcess };

/**
 * One isolated media pipeline per test file (the kit's WorkerHarness from @clipit/testing: its own queue,
 * stream and subject prefix, the events the worker publishes, workers in this process or as processes),
 * with a storage folder and a scratch folder of its own, and clips synthesized with ffmpeg as uploads.
 */
export class MediaWorkerHarness extends WorkerHarness<MediaWorkerApp, MediaEventEnvelope, MediaQueue, MediaWorkerConfigOverrides> {
  storageRoot!: string;
  tmpRoot!: string;
  clipsDir!: string;
  storage!: FsStorageDriver;

  /** `natsUrl`: a private NATS (startNatsServer) for outage tests; the run's shared one by default. */
  constructor(natsUrl: string = testInfra().natsUrl) {
    super({
      service: 'media-worker',
      bootstrap: bootstrapMediaWorker,
      openQueue: (redisUrl, prefix) => createMediaQueue({ connection: { url: redisUrl }, prefix }),
      natsUrl,
    });
  }

  /** Builds the service (tsc -b, incremental) so child processes run the current code. */
  static build(): void {
    new MediaWorkerHarness().build();
  }

  override async start(): Promise<this> {
    this.storageRoot = await mkdtemp(join(tmpdir(), 'clipit-mw-storage-'));
    this.tmpRoot = await mkdtemp(join(tmpdir(), 'clipit-mw-scratch-'));
    this.clipsDir = await mkdtemp(join(tmpdir(), 'clipit-mw-clips-'));
    this.storage = new FsStorageDriver(this.storageRoot);
    return super.start();
  }

  protected override workerEnv(): MediaWorkerConfigOverrides {
    return {
      STORAGE_DRIVER: 'fs',
      STORAGE_FS_ROOT: this.storageRoot,
      MEDIA_WORKER_TMP_DIR: this.tmpRoot,
      // A dead worker's job is free again within a few seconds.
      MEDIA_WORKER_LOCK_DURATION_MS: 2000,
      MEDIA_WORKER_STALLED_INTERVAL_MS: 1000,
    };
  }

  /** Synthesizes a clip, stores it as an upload and queues it, as the submissions service would. */
  async submitClip(spec: Omit<SynthesizeClipSpec, 'path'>, contentType = 'video/mp4'): Promise<ProcessVideoJob> {
    const path = join(this.clipsDir, `${randomUUID()}.${spec.container === 'webm' ? 'webm' : 'mp4'}`);
    await synthesizeClip({ ...spec, path });
    return this.submitFile(path, contentType);
  }

  async submitFile(path: string, contentType: string): Promise<ProcessVideoJob> {
    const videoId = randomUUID();
    const job = { videoId, submissionId: randomUUID(), sourceKey: mediaKeys.upload(videoId), contentType };
    await this.storage.put(job.sourceKey, createReadStream(path), contentType);
    await enqueueProcessVideo(this.queue, job);
    return job;
  }

  eventsFor(videoId: string): ReceivedEvent[] {
    return this.eventsWhere((e) => e.data.videoId === videoId);
  }

  /** The video's verdict (media.processed or media.failed); its fingerprint, stated after, is not one. */
  async waitForEvent(videoId: string, timeoutMs = 60_000): Promise<ReceivedEvent> {
    return this.waitForEventWhere(
      (e) => e.data.videoId === videoId && e.type !== 'media.fingerprinted',
      timeoutMs,
      `the verdict on video ${videoId}`,
    );
  }

  /** The media.fingerprinted of a processed video (its fingerprint-video job runs after the verdict). */
  async waitForFingerprint(videoId: string, timeoutMs = 60_000): Promise<ReceivedEvent> {
    return this.waitForEventWhere(
      (e) => e.data.videoId === videoId && e.type === 'media.fingerprinted',
      timeoutMs,
      `the fingerprint of video ${videoId}`,
    );
  }

  /** How many messages the stream holds for a video (the consumer could in principle see redeliveries). */
  async storedEventCount(videoId: string, type: string): Promise<number> {
    return this.storedEventsWhere((e) => e?.type === type && e.data.videoId === videoId);
  }

  /** Stored object keys under videos/<id>/ (sidecar .meta files left out). */
  async outputsOf(videoId: string): Promise<string[]> {
    try {
      return (await readdir(join(this.storageRoot, 'videos', videoId))).filter((f) => !f.endsWith('.meta')).sort();
    } catch {
      return [];
    }
  }

  async scratchEntries(): Promise<string[]> {
    await mkdir(this.tmpRoot, { recursive: true });
    return readdir(this.tmpRoot);
  }

  override async stop(): Promise<void> {
    await super.stop();
    for (const dir of [this.storageRoot, this.tmpRoot, this.clipsDir]) await rm(dir, { recursive: true, force: true });
  }
}
