import { z } from 'zod';
import { traceFields } from '../trace.js';

/**
 * The one job name on the media queue. Where the queue lives (its name, Redis key rule and job
 * options) is @clipit/media-queue's; what a job carries is here, for producer and worker alike.
 */
export const PROCESS_VIDEO_JOB = 'process-video';

/**
 * A video to process. The job id is the video id, so a video has at most one job at a time however
 * often it is enqueued. The source object is the upload as the client sent it.
 */
export const processVideoJobSchema = z.object({
  videoId: z.uuid(),
  submissionId: z.uuid(),
  sourceKey: z.string().min(1),
  /** As the uploader declared it (mp4, webm, mov, avi); ffprobe decides what it really is. */
  contentType: z.string().min(1),
  /**
   * The correlation id of the request that finalized the upload, so the worker's logs and its
   * media.* events carry it on to the service that applies them. Optional: older jobs lack it.
   */
  correlationId: z
    .string()
    .regex(/^[\w.:-]{1,128}$/)
    .optional(),
  /** The producer's span (ADR 0054), written by the queue's add: the worker's run joins its trace. */
  ...traceFields,
});
export type ProcessVideoJob = z.infer<typeof processVideoJobSchema>;

/**
 * The media queue's second job: fingerprint a processed video for re-upload detection (ADR 0048). It
 * runs after the video is already playable, and after every waiting process-video job (its priority is
 * lower), so fingerprinting never delays playback.
 */
export const FINGERPRINT_VIDEO_JOB = 'fingerprint-video';

/** A served video to fingerprint: the MP4 the media worker stored for it. The job id is derived from the video id. */
export const fingerprintVideoJobSchema = z.object({
  videoId: z.uuid(),
  submissionId: z.uuid(),
  /** The served MP4's storage key (mediaKeys.video). */
  videoKey: z.string().min(1),
  /**
   * Whether the served video has a sound track, when the job's maker knows (the media worker, from its probe):
   * false leaves the sound print out at once, instead of an ffmpeg run that finds no audio stream first.
   * Absent (the reconciler's re-drive), the print finds out for itself.
   */
  hasAudio: z.boolean().optional(),
  correlationId: z
    .string()
    .regex(/^[\w.:-]{1,128}$/)
    .optional(),
  ...traceFields,
});
export type FingerprintVideoJob = z.infer<typeof fingerprintVideoJobSchema>;
