import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fingerprintVideoJobSchema, type FingerprintVideoJob } from '@clipit/contracts';
import { InvalidMediaError } from '@clipit/media';
import { buildEventEnvelope, deterministicEventId } from '@clipit/service-kit';
import { decidedProgressSchema, keptEventSchema, KeptOutcome, parseJobData, type Decided } from '@clipit/worker-kit';
import type { Logger } from 'pino';
import { SourceMissingError, WORK_DIR_PREFIX } from './process-video.handler.js';
import type { FingerprintEvent, FingerprintSink, FingerprintTools, ObjectStore, VideoJob } from './ports.js';

/** What the moderator's record says when a clip could not be fingerprinted after its retries. */
export const FINGERPRINT_FAILED_REASON = 'the video could not be fingerprinted';

type DecidedFingerprint = Decided<FingerprintEvent> & { event: FingerprintEvent };

const decidedSchema = decidedProgressSchema({ event: keptEventSchema(['media.fingerprinted']) });

export interface FingerprintVideoHandlerDeps {
  storage: Pick<ObjectStore, 'stat' | 'download'>;
  tools: FingerprintTools;
  events: FingerprintSink;
  logger: Logger;
  /** Parent of the per-job scratch folders (the process-video jobs' too). */
  tmpRoot: string;
}

/**
 * One fingerprint-video job (ADR 0048): fetch the served MP4 of a processed video, fingerprint it, and
 * state `media.fingerprinted`. It runs after the video is playable, so it never holds playback back.
 *
 * Durable like process-video: the outcome is decided once and kept in the job before it is published,
 * under an id derived from the video id, so a run after a crash or a publication that failed states the
 * same fact, and consumers drop the copy. A file ffmpeg cannot read, and a video gone from storage after
 * the retries, are stated as a fingerprint that could not be made (with the reason), never left unsaid:
 * the moderator then sees the clip as unchecked rather than as clean.
 */
export class FingerprintVideoHandler {
  private readonly outcomes: KeptOutcome<FingerprintEvent, DecidedFingerprint>;

  constructor(private readonly deps: FingerprintVideoHandlerDeps) {
    this.outcomes = new KeptOutcome({ schema: decidedSchema, events: deps.events });
  }

  async process(job: VideoJob, signal: AbortSignal): Promise<FingerprintEvent> {
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
        log.error({ err }, 'giving up on the fingerprint after its last attempt');
        return { event: this.event(data, null, FINGERPRINT_FAILED_REASON) };
      },
      onRecorded: (recorded) => log.info({ eventId: recorded.event.id }, 'fingerprint decided earlier: stating it again'),
    });
    await this.outcomes.publish(job, decided);
    return decided.event;
  }

  /** A job BullMQ failed without running (its workers kept dying): the kept outcome, or a fingerprint not made. */
  async giveUp(job: VideoJob, why: string): Promise<FingerprintEvent | undefined> {
    let data: FingerprintVideoJob;
    try {
      data = this.parseJob(job);
    } catch {
      return undefined;
    }
    const decided = await this.outcomes.decideOnce(job, async () => ({ event: this.event(data, null, FINGERPRINT_FAILED_REASON) }));
    this.deps.logger.error({ jobId: job.id, videoId: data.videoId, why }, 'fingerprint job failed without running: stating its outcome');
    await this.outcomes.publish(job, decided);
    return decided.event;
  }

  private parseJob(job: VideoJob): FingerprintVideoJob {
    return parseJobData(fingerprintVideoJobSchema, job, 'fingerprint-video');
  }

  private async decide(data: FingerprintVideoJob, signal: AbortSignal, log: Logger): Promise<FingerprintEvent> {
    const { storage, tools } = this.deps;
    const dir = await mkdtemp(join(this.deps.tmpRoot, `${WORK_DIR_PREFIX}${process.pid}-`));
    try {
      const started = performance.now();
      if (!(await storage.stat(data.videoKey))) throw new SourceMissingError(data.videoKey);
      const file = join(dir, 'video.mp4');
      await storage.download(data.videoKey, file, signal);
      try {
        const fingerprint = await tools.fingerprint(file, signal, data.hasAudio);
        log.info(
          { frames: fingerprint.frames.length, audio: fingerprint.audio !== null, ms: Math.round(performance.now() - started) },
          'fingerprinted',
        );
        return this.event(data, fingerprint);
      } catch (err) {
        if (!(err instanceof InvalidMediaError)) throw err;
        log.warn({ reason: err.message }, 'the served video could not be fingerprinted');
        return this.event(data, null, FINGERPRINT_FAILED_REASON);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private event(data: FingerprintVideoJob, fingerprint: FingerprintEvent['data']['fingerprint'], reason?: string): FingerprintEvent {
    return buildEventEnvelope(
      'media.fingerprinted',
      { videoId: data.videoId, submissionId: data.submissionId, fingerprint, ...(reason ? { reason } : {}) },
      {
        id: deterministicEventId('media.fingerprinted', data.videoId),
        correlationId: data.correlationId ?? `video:${data.videoId}`,
      },
    );
  }
}
