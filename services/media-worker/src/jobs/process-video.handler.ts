import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaKeys, processVideoJobSchema, type MediaFailureCode, type ProcessVideoJob } from '@clipit/contracts';
import { guideChecks, isVideoTooLong, VIDEO_LIMITS, VIDEO_MESSAGES } from '@clipit/field-rules';
import {
  DEFAULT_MAX_BIT_RATE,
  InvalidMediaError,
  webReadiness,
  type Prepared,
  type WatermarkEstimate,
  type WebReadyVerdict,
} from '@clipit/media';
import { buildEventEnvelope, deterministicEventId } from '@clipit/service-kit';
import { decidedProgressSchema, keptEventSchema, KeptOutcome, parseJobData, type Decided } from '@clipit/worker-kit';
import type { Logger } from 'pino';
import type { EventSink, FingerprintQueue, MediaEvent, ObjectStore, VideoJob, VideoTools } from './ports.js';

/** Shown when the worker gave up on a video for reasons that are not the file's (after its retries). */
export const PROCESSING_FAILED_MESSAGE = VIDEO_MESSAGES.processingFailed;

/** Scratch folders are named `<prefix><pid>-<random>`, so a restarted worker can remove a dead one's. */
export const WORK_DIR_PREFIX = 'clipit-media-';

// Unusable job data, and a decided outcome JetStream did not take: the kit's (ADR 0034).
export { InvalidJobError, PublishFailedError } from '@clipit/worker-kit';

/** The upload is not (yet) in storage; worth retrying, then processing-error. */
export class SourceMissingError extends Error {
  constructor(key: string) {
    super(`source object ${key} is not in storage`);
    this.name = 'SourceMissingError';
  }
}

/** The stable id a player asks for: derived from the video id, without revealing it. */
export function playbackIdFor(videoId: string): string {
  return createHash('sha256').update(`clipit-playback:${videoId}`).digest('hex').slice(0, 32);
}

/**
 * What a job keeps in its progress once it has decided: the event, and how many times its publication
 * failed so far. Kept in Redis with the job, so it survives the worker, a delay, a failure and a retry of
 * the job (BullMQ keeps progress on `job.retry()`).
 */
export type DecidedProgress = Decided<MediaEvent> & { event: MediaEvent };

const decidedSchema = decidedProgressSchema({ event: keptEventSchema(['media.processed', 'media.failed']) });

/** The event an earlier run of this job decided on, if any (kept in the job's progress). */
export function recordedEvent(progress: unknown): MediaEvent | undefined {
  const parsed = decidedSchema.safeParse(progress);
  return parsed.success ? (parsed.data.event as unknown as MediaEvent) : undefined;
}

export interface ProcessVideoHandlerDeps {
  storage: ObjectStore;
  tools: VideoTools;
  events: EventSink;
  /** Where a processed video's fingerprint job is queued, once its media.processed is stated (ADR 0048). */
  fingerprints: FingerprintQueue;
  logger: Logger;
  /** Parent of the per-job scratch folders. */
  tmpRoot: string;
  maxLongSide?: number;
  maxDurationSeconds?: number;
  maxBytes?: number;
  /** No served video reaches this many bits per second (MEDIA_MAX_BIT_RATE). */
  maxBitRate?: number;
}

/**
 * One process-video job: fetch the upload, measure it, refuse it (too long, too large, not a video)
 * or make the poster and the web MP4 (a remux when the upload plays as it is, else a transcode), check
 * it against the guide, and store them, then state the outcome as one event
 * (media.processed or media.failed) and delete the upload.
 *
 * Safe to run again at any point (a worker killed mid-job, a retry): outputs are overwritten in
 * place, the decided event is kept in the job before it is published and published again as it is
 * on the next run, its id is derived from the video id (JetStream and the consumers' inboxes drop
 * the repeat), and the upload is deleted only once the event is stored.
 */
export class ProcessVideoHandler {
  private readonly maxLongSide: number;
  private readonly maxDurationSeconds: number;
  private readonly maxBytes: number;
  private readonly maxBitRate: number;
  private readonly outcomes: KeptOutcome<MediaEvent, DecidedProgress>;

  constructor(private readonly deps: ProcessVideoHandlerDeps) {
    this.outcomes = new KeptOutcome({ schema: decidedSchema, events: deps.events });
    this.maxLongSide = deps.maxLongSide ?? VIDEO_LIMITS.maxLongSide;
    this.maxDurationSeconds = deps.maxDurationSeconds ?? VIDEO_LIMITS.maxDurationSeconds;
    this.maxBytes = deps.maxBytes ?? VIDEO_LIMITS.maxBytes;
    this.maxBitRate = deps.maxBitRate ?? DEFAULT_MAX_BIT_RATE;
  }

  /**
   * Runs the job and answers the event it stated. Throws (so the job is retried) only for failures
   * that may pass, and not on the job's last attempt: that one states media.failed processing-error.
   */
  async process(job: VideoJob, signal: AbortSignal): Promise<MediaEvent> {
    const data = this.parseJob(job);
    const log = this.deps.logger.child({
      jobId: job.id,
      videoId: data.videoId,
      submissionId: data.submissionId,
      attempt: job.attemptsMade + 1,
      ...(data.correlationId ? { correlationId: data.correlationId } : {}),
    });
    const decided = await this.outcomes.decideOrGiveUp(job, signal, {
      decide: async () => ({ event: await this.decide(data, signal, log) }),
      lastResort: (err) => {
        log.error({ err }, 'giving up on the video after its last attempt');
        return { event: this.failed(data, 'processing-error', PROCESSING_FAILED_MESSAGE) };
      },
      onRecorded: (recorded) =>
        log.info(
          { eventId: recorded.event.id, type: recorded.event.type, publishFailures: recorded.publishFailures ?? 0 },
          'job decided earlier: stating the same outcome again',
        ),
    });
    return this.finish(job, data, decided, log);
  }

  /**
   * For a job BullMQ failed without running it (it stalled too often: its workers kept dying). States
   * the event an earlier run decided on, or media.failed processing-error; nothing for unusable data.
   * The outcome is kept in the job first: when NATS is down the publication fails (once, nothing here
   * retries it) and submissions' reconciler retries the failed job, whose next run states it.
   */
  async giveUp(job: VideoJob, why: string): Promise<MediaEvent | undefined> {
    let data: ProcessVideoJob;
    try {
      data = this.parseJob(job);
    } catch {
      return undefined;
    }
    const decided = await this.outcomes.decideOnce(job, async () => ({
      event: this.failed(data, 'processing-error', PROCESSING_FAILED_MESSAGE),
    }));
    this.deps.logger.error({ jobId: job.id, videoId: data.videoId, why }, 'job failed without running: stating its outcome');
    return this.finish(job, data, decided);
  }

  private parseJob(job: VideoJob): ProcessVideoJob {
    return parseJobData(processVideoJobSchema, job, 'process-video');
  }

  private async decide(data: ProcessVideoJob, signal: AbortSignal, log: Logger): Promise<MediaEvent> {
    const { storage, tools } = this.deps;
    const dir = await mkdtemp(join(this.deps.tmpRoot, `${WORK_DIR_PREFIX}${process.pid}-`));
    // Where a job's time goes, in its 'processed' log line (ms): ops read it to scale the pipeline.
    const timings: Record<string, number> = {};
    let mark = performance.now();
    const lap = (step: string) => {
      const now = performance.now();
      timings[step] = Math.round(now - mark);
      mark = now;
    };
    try {
      const info = await storage.stat(data.sourceKey);
      if (!info) throw new SourceMissingError(data.sourceKey);
      if (info.size > this.maxBytes) return this.failed(data, 'too-large', VIDEO_MESSAGES.tooLarge);

      const source = join(dir, 'source');
      await storage.download(data.sourceKey, source, signal);
      lap('fetchMs');

      let probe;
      try {
        probe = await tools.probe(source, signal);
      } catch (err) {
        if (!(err instanceof InvalidMediaError)) throw err;
        log.info({ reason: err.message }, 'refused: not a readable video');
        return this.failed(data, 'invalid', VIDEO_MESSAGES.invalid);
      }
      lap('probeMs');
      if (isVideoTooLong(probe.durationSeconds, this.maxDurationSeconds)) {
        log.info({ durationSeconds: probe.durationSeconds }, 'refused: too long');
        return this.failed(data, 'too-long', VIDEO_MESSAGES.tooLong(probe.durationSeconds));
      }

      const posterFile = join(dir, 'poster.jpg');
      const videoFile = join(dir, 'video.mp4');
      const readiness = webReadiness(probe, this.maxBitRate);
      const { processing, keyframes } = await this.serve(source, videoFile, posterFile, readiness, probe.durationSeconds, signal, log);
      lap('serveMs');
      const watermark = await tools
        .estimateWatermark(source, { signal, keyframes })
        .catch((err: unknown): WatermarkEstimate | undefined => {
          if (signal.aborted) throw err;
          // A signal, never a reason to hold the video back.
          log.warn({ err }, 'watermark estimate failed: the check says unsure');
          return undefined;
        });
      lap('watermarkMs');
      const guide = guideChecks({
        durationSeconds: probe.durationSeconds,
        width: probe.width,
        height: probe.height,
        hasAudio: probe.audioCodec !== null,
        watermark: watermark?.verdict ?? 'unsure',
      });
      const video = await storage.upload(mediaKeys.video(data.videoId), videoFile, 'video/mp4');
      const poster = await storage.upload(mediaKeys.poster(data.videoId), posterFile, 'image/jpeg');
      lap('storeMs');
      log.info(
        {
          durationSeconds: probe.durationSeconds,
          width: probe.width,
          height: probe.height,
          videoBytes: video.size,
          processing,
          ...(readiness.playsAsIs ? {} : { transcodedBecause: readiness.why }),
          watermark,
          guideWarnings: guide.filter((check) => check.verdict === 'warning').map((check) => check.rule),
          timings,
        },
        'processed',
      );
      return buildEventEnvelope(
        'media.processed',
        {
          videoId: data.videoId,
          submissionId: data.submissionId,
          durationSeconds: probe.durationSeconds,
          width: probe.width,
          height: probe.height,
          aspectRatio: probe.aspectRatio,
          videoCodec: probe.videoCodec,
          audioCodec: probe.audioCodec,
          video: { key: video.key, contentType: video.contentType, size: video.size },
          poster: { key: poster.key, contentType: poster.contentType, size: poster.size },
          playbackId: playbackIdFor(data.videoId),
          processing,
          guideChecks: guide,
        },
        this.envelopeOptions('media.processed', data),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Writes the served MP4 and the poster. One ffmpeg makes the poster, reads the keyframes the watermark
   * estimate needs and, for an upload that plays as it is, copies its streams (the remux); a transcode runs
   * beside it otherwise. Should that one ffmpeg fail, its steps run apart as they once did, so that a failed
   * sampling only makes the watermark check unsure. A remux that came out at or over the cap (a container's
   * overhead on a source just under it) is transcoded instead: no served file reaches the cap.
   */
  private async serve(
    source: string,
    videoFile: string,
    posterFile: string,
    readiness: WebReadyVerdict,
    durationSeconds: number,
    signal: AbortSignal,
    log: Logger,
  ): Promise<{ processing: 'remux' | 'transcode'; keyframes?: Uint8Array | undefined }> {
    const { tools } = this.deps;
    const remuxFile = readiness.playsAsIs ? videoFile : undefined;
    const transcode = () =>
      tools.transcodeForWeb(source, videoFile, { maxLongSide: this.maxLongSide, maxBitRate: this.maxBitRate, durationSeconds, signal });
    const [prepared] = await allSettledOrThrow([
      tools
        .prepareForWeb(source, { posterFile, remuxFile, durationSeconds, maxLongSide: this.maxLongSide, signal })
        .catch((err: unknown): Prepared | undefined => {
          if (signal.aborted) throw err;
          log.warn({ err }, 'the poster, keyframes and remux in one ffmpeg failed: making them one by one');
          return undefined;
        }),
      remuxFile ? Promise.resolve(undefined) : transcode(),
    ] as const);
    const remux = prepared
      ? prepared.remux
      : (
          await allSettledOrThrow([
            remuxFile ? tools.remuxForWeb(source, remuxFile, { durationSeconds, signal }) : Promise.resolve(undefined),
            tools.makePoster(source, posterFile, { durationSeconds, maxLongSide: this.maxLongSide, signal }),
          ] as const)
        )[0];
    const keyframes = prepared?.keyframes;
    if (!remux) return { processing: 'transcode', keyframes };
    if (remux.bitRate < this.maxBitRate) return { processing: 'remux', keyframes };
    log.info({ bitRate: remux.bitRate, maxBitRate: this.maxBitRate }, 'the remux reached the bit-rate cap: transcoding instead');
    await transcode();
    return { processing: 'transcode', keyframes };
  }

  private failed(data: ProcessVideoJob, code: MediaFailureCode, reason: string): MediaEvent {
    return buildEventEnvelope(
      'media.failed',
      { videoId: data.videoId, submissionId: data.submissionId, code, reason },
      this.envelopeOptions('media.failed', data),
    );
  }

  private envelopeOptions(type: MediaEvent['type'], data: ProcessVideoJob) {
    // The finalizing request's id when the job carries it (jobs queued before it did: the video id).
    return { id: deterministicEventId(type, data.videoId), correlationId: data.correlationId ?? `video:${data.videoId}` };
  }

  /**
   * Outputs of a refused video go (an earlier attempt may have written them), the event goes out, a
   * processed video's fingerprint job is queued (again, on a later run: adding it again adds nothing), then
   * the upload goes. A failed publication throws PublishFailedError, after counting it in the job's
   * progress (the decided event stays there as it was).
   */
  private async finish(
    job: VideoJob,
    data: ProcessVideoJob,
    decided: DecidedProgress,
    log: Logger = this.deps.logger,
  ): Promise<MediaEvent> {
    const { storage } = this.deps;
    const { event } = decided;
    if (event.type === 'media.failed') {
      await storage.delete(mediaKeys.video(data.videoId));
      await storage.delete(mediaKeys.poster(data.videoId));
    }
    await this.outcomes.publish(job, decided);
    if (event.type === 'media.processed') {
      // Should this fail (Redis away), the job is retried and comes back here; submissions' reconciler is the backstop.
      await this.deps.fingerprints.enqueue({
        videoId: data.videoId,
        submissionId: data.submissionId,
        videoKey: event.data.video.key,
        // The served MP4 keeps the upload's sound track, or has none.
        hasAudio: event.data.audioCodec !== null,
        ...(data.correlationId ? { correlationId: data.correlationId } : {}),
      });
    }
    await storage.delete(data.sourceKey);
    log.debug({ eventId: event.id, type: event.type }, 'outcome stated; upload deleted');
    return event;
  }
}

/**
 * Promise.all that waits for every step before answering: on a failure the others' ffmpeg processes have
 * ended before the scratch folder goes. Throws the first failure.
 */
async function allSettledOrThrow<T extends readonly unknown[]>(steps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(steps);
  const failure = settled.find((step): step is PromiseRejectedResult => step.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((step) => (step as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
