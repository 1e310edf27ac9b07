import { problemText, type Problem } from './problem.js';

/**
 * The video limits of spec 01 §5 and §9: checked in the browser before an upload, by the gateway while
 * the bytes arrive (size), by submissions at finalize (type, size) and by the media worker (duration,
 * measured; the worker also makes the web MP4 no larger than maxLongSide).
 */
export const VIDEO_LIMITS = {
  maxBytes: 150 * 1024 * 1024,
  maxDurationSeconds: 40,
  /** Long side of the web-playable MP4. */
  maxLongSide: 1080,
  contentTypes: ['video/mp4', 'video/webm', 'video/mov', 'video/quicktime', 'video/avi', 'video/x-msvideo'],
  dailyVideoSubmissions: 3,
} as const;

const MAX_MEGABYTES = VIDEO_LIMITS.maxBytes / (1024 * 1024);

/** A content type without its parameters, lower case (`Video/MP4; codecs=x` → `video/mp4`). */
export function bareContentType(type: string | null | undefined): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a declared content type is one of the video types of spec 01 §5 (parameters ignored). */
export function isVideoContentType(type: string | null | undefined): boolean {
  return (VIDEO_LIMITS.contentTypes as readonly string[]).includes(bareContentType(type));
}

/** The duration verdict: whole seconds (floored), as the spec's message counts them. */
export function isVideoTooLong(durationSeconds: number, maxSeconds: number = VIDEO_LIMITS.maxDurationSeconds): boolean {
  return Math.floor(durationSeconds) > maxSeconds;
}

/** The spec's refusals of a video (spec 01 §5), as the add-clip dialog's toasts show them. */
export const VIDEO_PROBLEMS = {
  invalidType: { title: 'Invalid File Type', description: 'Please upload a video file (MP4, WebM, MOV, or AVI).' },
  tooLarge: { title: 'File Too Large', description: `Please upload a video smaller than ${MAX_MEGABYTES}MB.` },
  tooLong: (durationSeconds: number): Problem => ({
    title: 'Video Too Long',
    description: `Video must be ${VIDEO_LIMITS.maxDurationSeconds} seconds or less. Your video is ${Math.floor(durationSeconds)} seconds.`,
  }),
  /** Not a readable video (the browser could not read it, or ffprobe refused it). */
  invalid: { title: 'Invalid Video', description: 'Could not read video file. Please try a different file.' },
  /** Not the spec's: the platform gave up on a readable video (its retries used up), which is not the file's fault. */
  processingFailed: { title: 'Processing Failed', description: 'We could not process this video. Please upload it again.' },
} as const;

/** The same refusals as the services answer them ("Title: description"). */
export const VIDEO_MESSAGES = {
  invalidType: problemText(VIDEO_PROBLEMS.invalidType),
  tooLarge: problemText(VIDEO_PROBLEMS.tooLarge),
  tooLong: (durationSeconds: number): string => problemText(VIDEO_PROBLEMS.tooLong(durationSeconds)),
  invalid: problemText(VIDEO_PROBLEMS.invalid),
  processingFailed: problemText(VIDEO_PROBLEMS.processingFailed),
} as const;
