import { z } from 'zod';

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
  correlationId: z.string().regex(/^[\w.:-]{1,128}$/).optional(),
});
export type ProcessVideoJob = z.infer<typeof processVideoJobSchema>;

/** Storage keys of one video's objects: the upload, and what the worker makes of it. */
export const mediaKeys = {
  upload: (videoId: string) => `uploads/${videoId}`,
  video: (videoId: string) => `videos/${videoId}/video.mp4`,
  poster: (videoId: string) => `videos/${videoId}/poster.jpg`,
} as const;

/** The limits of spec 01 §9, enforced by the gateway (size, while the bytes arrive) and the worker (duration, measured). */
export const VIDEO_LIMITS = {
  maxBytes: 150 * 1024 * 1024,
  maxDurationSeconds: 40,
  /** Long side of the web-playable MP4. */
  maxLongSide: 1080,
  contentTypes: ['video/mp4', 'video/webm', 'video/mov', 'video/quicktime', 'video/avi', 'video/x-msvideo'],
  dailyVideoSubmissions: 3,
} as const;

/** A content type without its parameters, lower case (`Video/MP4; codecs=x` → `video/mp4`). */
export function bareContentType(type: string | null | undefined): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a declared content type is one of the video types of spec 01 §5 (parameters ignored). */
export function isVideoContentType(type: string | null | undefined): boolean {
  return (VIDEO_LIMITS.contentTypes as readonly string[]).includes(bareContentType(type));
}

/** The spec's messages for a refused video (spec 01 §5); the title and the text, as the UI shows them. */
export const VIDEO_MESSAGES = {
  invalidType: 'Invalid File Type: Please upload a video file (MP4, WebM, MOV, or AVI).',
  tooLarge: 'File Too Large: Please upload a video smaller than 150MB.',
  tooLong: (seconds: number) => `Video Too Long: Video must be 40 seconds or less. Your video is ${Math.floor(seconds)} seconds.`,
  invalid: 'Invalid Video: Could not read video file. Please try a different file.',
  /** Not the spec's: the platform gave up on a readable video (its retries used up), which is not the file's fault. */
  processingFailed: 'Processing Failed: We could not process this video. Please upload it again.',
} as const;
