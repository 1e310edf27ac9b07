import { FINGERPRINT_VIDEO_JOB } from '@clipit/contracts';
import { MEDIA_QUEUE, type MediaJobData, type MediaJobName } from '@clipit/media-queue';
import { JobEndedError, QueueWorker, type JobDone, type QueueWorkerOptions } from '@clipit/worker-kit';
import type { Job } from 'bullmq';
import { mediaJobs } from '../metrics.js';
import type { FingerprintVideoHandler } from '../jobs/fingerprint-video.handler.js';
import type { ProcessVideoHandler } from '../jobs/process-video.handler.js';

// The backoff of a decided outcome NATS did not take is the kit's (its spec is kept beside this worker).
export { publishRetryDelayMs } from '@clipit/worker-kit';

/** What a finished job leaves as its BullMQ return value (the event carries the rest). */
export interface MediaJobResult {
  eventId: string;
  playbackId?: string;
}

export interface MediaQueueWorkerOptions extends QueueWorkerOptions {
  handler: ProcessVideoHandler;
  fingerprints: FingerprintVideoHandler;
}

/**
 * The media queue's worker: process-video jobs go to the video handler, fingerprint-video jobs (queued
 * with a lower priority, so they wait for every video still to process) to the fingerprint handler. A
 * verdict on the file ends a process-video job at once (no retry) once it is stated; other errors are
 * retried with the job's backoff. What every worker does alike (a decided outcome kept and published again
 * while NATS is away, shutdown drain, Redis outages) is the kit's QueueWorker. On close, a job still running
 * after the drain has its ffmpeg stopped and goes back to the queue without using up an attempt.
 */
export class MediaQueueWorker extends QueueWorker<MediaJobData, MediaJobResult> {
  private readonly handler: ProcessVideoHandler;
  private readonly fingerprints: FingerprintVideoHandler;

  constructor(opts: MediaQueueWorkerOptions) {
    super(opts, { queue: MEDIA_QUEUE, label: 'media queue worker', metrics: mediaJobs });
    this.handler = opts.handler;
    this.fingerprints = opts.fingerprints;
  }

  protected async runJob(job: Job<MediaJobData, MediaJobResult, MediaJobName>, signal: AbortSignal): Promise<JobDone<MediaJobResult>> {
    if (job.name === FINGERPRINT_VIDEO_JOB) {
      const event = await this.fingerprints.process(job, signal);
      return { label: event.data.fingerprint ? 'fingerprinted' : 'not-fingerprinted', result: { eventId: event.id } };
    }
    const event = await this.handler.process(job, signal);
    if (event.type === 'media.processed') return { label: 'processed', result: { eventId: event.id, playbackId: event.data.playbackId } };
    // Stated and final: the job fails now, never retried.
    throw new JobEndedError(event.data.code, `${event.data.code}: ${event.data.reason}`);
  }

  /** Its workers kept dying: state what an earlier run decided, or processing-error (submissions' reconciler re-drives it if NATS is away). */
  protected override failedWithoutRunning(job: Job<MediaJobData, MediaJobResult>, why: string): Promise<unknown> {
    return job.name === FINGERPRINT_VIDEO_JOB ? this.fingerprints.giveUp(job, why) : this.handler.giveUp(job, why);
  }
}
