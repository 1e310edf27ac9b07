import {
  FINGERPRINT_VIDEO_JOB,
  fingerprintVideoJobSchema,
  PROCESS_VIDEO_JOB,
  processVideoJobSchema,
  type FingerprintVideoJob,
  type ProcessVideoJob,
} from '@clipit/contracts';
import type { Job, JobsOptions, Queue, RedisOptions } from 'bullmq';
import type { ConnectionLogger } from './connection.js';
import { createJobQueue } from './job-queue.js';

/** The BullMQ queue the media worker consumes; its Redis keys are `<mediaQueuePrefix>:media:*`. */
export const MEDIA_QUEUE = 'media';

/**
 * How a process-video job is retried and kept. Three attempts with exponential backoff (5 s, 10 s)
 * for failures that may pass (storage, a killed ffmpeg); a verdict on the file (too long, not a
 * video) fails at once. Finished jobs are kept for a while, bounded, so a job id (= the video id)
 * added again soon after is a no-op and Redis does not grow without end.
 */
export const PROCESS_VIDEO_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
} as const satisfies JobsOptions;

/**
 * How a fingerprint-video job is run: after every process-video job waiting (BullMQ takes jobs without a
 * priority before any with one), so a burst of uploads is made playable first; retried like a process-video
 * job, and kept as long, so adding it again for the same video adds nothing.
 */
export const FINGERPRINT_VIDEO_JOB_OPTIONS = {
  ...PROCESS_VIDEO_JOB_OPTIONS,
  priority: 10,
} as const satisfies JobsOptions;

/** The job id of a video's fingerprint job: its own, beside the process-video job whose id is the video id. */
export function fingerprintJobId(videoId: string): string {
  return `fingerprint-${videoId}`;
}

/** The media queue's jobs: a video to process, and a processed one to fingerprint. */
export type MediaJobData = ProcessVideoJob | FingerprintVideoJob;
export type MediaJobName = typeof PROCESS_VIDEO_JOB | typeof FINGERPRINT_VIDEO_JOB;
export type MediaQueue = Queue<MediaJobData, unknown, MediaJobName>;

export interface MediaQueueOptions {
  /** Where Redis is: the service kit's redisConnectionOptions(config) (REDIS_URL, or its sentinels). */
  connection: RedisOptions;
  /** The deployment's REDIS_KEY_PREFIX (e.g. `clipit:`); the queue's keys go under {@link mediaQueuePrefix} of it. */
  prefix: string;
  /** Where a Redis outage is reported (once when it starts, once when it ends); the service's pino logger. */
  logger?: ConnectionLogger;
}

/**
 * The producer's handle on the media queue (the submissions service). Close it on shutdown
 * (`await queue.close()`). Adding fails fast when Redis is down instead of queueing commands in memory,
 * and works again within about a second of Redis answering (see connection.ts).
 */
export function createMediaQueue(opts: MediaQueueOptions): MediaQueue {
  return createJobQueue<MediaJobData, MediaJobName>({
    ...opts,
    queue: MEDIA_QUEUE,
    defaultJobOptions: PROCESS_VIDEO_JOB_OPTIONS,
  });
}

/**
 * Queues a video for the media worker. The data is checked against processVideoJobSchema (a ZodError
 * names the bad field); the job id is the video id, so enqueueing the same video again while its job
 * exists (waiting, running, or kept after finishing) adds nothing and answers the existing job.
 */
export async function enqueueProcessVideo(queue: MediaQueue, job: ProcessVideoJob): Promise<Job<MediaJobData, unknown, MediaJobName>> {
  const data = processVideoJobSchema.parse(job);
  return queue.add(PROCESS_VIDEO_JOB, data, { ...PROCESS_VIDEO_JOB_OPTIONS, jobId: data.videoId });
}

/**
 * Queues a processed video's fingerprint (the media worker, once its media.processed is stated; submissions'
 * reconciler for one whose fingerprint never came). Checked against fingerprintVideoJobSchema; adding it
 * again while its job exists adds nothing.
 */
export async function enqueueFingerprintVideo(
  queue: Pick<MediaQueue, 'add'>,
  job: FingerprintVideoJob,
): Promise<Job<MediaJobData, unknown, MediaJobName>> {
  const data = fingerprintVideoJobSchema.parse(job);
  return queue.add(FINGERPRINT_VIDEO_JOB, data, { ...FINGERPRINT_VIDEO_JOB_OPTIONS, jobId: fingerprintJobId(data.videoId) });
}

/** What {@link redriveProcessVideo} did: left a live job alone, retried a finished one, or queued a lost one again. */
export type RedriveAction = 'left' | 'retried' | 'added';

export interface RedriveResult {
  action: RedriveAction;
  /** The job's state as found: waiting, active, delayed, … completed, failed; `missing` when it was gone. */
  state: string;
}

/**
 * Drives a video whose verdict never arrived through the media queue again, idempotently (the
 * submissions reconciler calls it for videos processing too long):
 *
 * - a job that is waiting, active or delayed (e.g. publishing its event again while NATS is down)
 *   is on its way: left alone;
 * - a failed or completed job is retried with its attempts reset. Its progress, which holds the
 *   verdict it decided, is kept, so the worker states that very event again (same deterministic id:
 *   JetStream and the consumers' inboxes drop a copy) without running ffmpeg again;
 * - a job Redis no longer holds (removed, or Redis lost it) is queued again under the same id.
 *
 * Safe when several callers re-drive the same video at once: only one retry of a finished job
 * succeeds (BullMQ moves it atomically; the others find it no longer finished and leave it), and
 * adding a job id that exists adds nothing.
 */
export async function redriveProcessVideo(queue: MediaQueue, job: ProcessVideoJob): Promise<RedriveResult> {
  const data = processVideoJobSchema.parse(job);
  return redrive(queue, data.videoId, () => enqueueProcessVideo(queue, data));
}

/**
 * The same for a ready video whose fingerprint never arrived (submissions' reconciler): its fingerprint job
 * is left alone while on its way, retried when finished (the worker states its kept outcome again), queued
 * again when lost.
 */
export async function redriveFingerprintVideo(queue: MediaQueue, job: FingerprintVideoJob): Promise<RedriveResult> {
  const data = fingerprintVideoJobSchema.parse(job);
  return redrive(queue, fingerprintJobId(data.videoId), () => enqueueFingerprintVideo(queue, data));
}

async function redrive(queue: MediaQueue, jobId: string, add: () => Promise<unknown>): Promise<RedriveResult> {
  const existing = await queue.getJob(jobId);
  const state = existing ? await existing.getState() : 'missing';
  if (!existing || state === 'unknown') {
    await add();
    return { action: 'added', state: 'missing' };
  }
  if (state !== 'failed' && state !== 'completed') return { action: 'left', state };
  try {
    await existing.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
  } catch (err) {
    // Someone else moved it first (another replica's retry, a worker): whatever it is now, it is on its way.
    const now = await queue.getJobState(jobId);
    if (now === state) throw err;
    return { action: 'left', state: now };
  }
  return { action: 'retried', state };
}
