// The add-clip dialog's rules (spec 01 §3, §5): the post link, the optional video, the payload.
import type { CreateSubmissionRequest } from '@clipit/web-api';

export const MAX_VIDEO_BYTES = 150 * 1024 * 1024;
const MAX_VIDEO_SECONDS = 40;
const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/mov', 'video/quicktime', 'video/avi', 'video/x-msvideo'] as const;
/** The file picker's filter (the check below is what decides). */
export const VIDEO_ACCEPT = VIDEO_TYPES.join(',');
/** The streamer select's value for "no streamer". */
export const NO_STREAMER = 'none';

export interface Problem {
  title: string;
  description: string;
}

export const PROBLEMS = {
  missing: { title: 'Missing Information', description: 'Please fill in the clip title and Twitter URL.' },
  badUrl: { title: 'Invalid Twitter URL', description: 'Please enter a valid Twitter/X post URL.' },
  badType: { title: 'Invalid File Type', description: 'Please upload a video file (MP4, WebM, MOV, or AVI).' },
  tooLarge: { title: 'File Too Large', description: 'Please upload a video smaller than 150MB.' },
  unreadable: { title: 'Invalid Video', description: 'Could not read video file. Please try a different file.' },
} as const satisfies Record<string, Problem>;

export const tooLong = (seconds: number): Problem => ({
  title: 'Video Too Long',
  description: `Video must be ${MAX_VIDEO_SECONDS} seconds or less. Your video is ${seconds} seconds.`,
});

const TWEET_URL = /^https?:\/\/(?:(?:www|mobile)\.)?(?:twitter\.com|x\.com)\/([A-Za-z0-9_]+)\/status\/(\d+)(?:[/?#].*)?$/i;

export interface TweetRef {
  authorHandle: string;
  externalId: string;
}

/** The handle and numeric post id of a twitter.com / x.com post link, or null when it is not one. */
export function parseTweetUrl(url: string): TweetRef | null {
  const match = TWEET_URL.exec(url.trim());
  if (!match) return null;
  return { authorHandle: match[1]!, externalId: match[2]! };
}

/** The type and size checks of a chosen video (the duration needs the browser: see readVideoDuration). */
export function checkVideoFile(file: Pick<File, 'type' | 'size'>): Problem | null {
  if (!(VIDEO_TYPES as readonly string[]).includes(file.type)) return PROBLEMS.badType;
  if (file.size > MAX_VIDEO_BYTES) return PROBLEMS.tooLarge;
  return null;
}

/** The duration check: whole seconds (floored), at most 40. */
export function checkVideoDuration(durationSeconds: number): Problem | null {
  if (!Number.isFinite(durationSeconds) || durationSeconds < 0) return PROBLEMS.unreadable;
  const seconds = Math.floor(durationSeconds);
  return seconds > MAX_VIDEO_SECONDS ? tooLong(seconds) : null;
}

/** '12.3 MB': the size in megabytes (1024²), one decimal. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface ClipForm {
  name: string;
  url: string;
  streamer: string;
}

/** The add-clip dialog's POST /api/submissions body, typed by the gateway's document. */
export type SubmissionPayload = CreateSubmissionRequest;

/** Checks the form and builds the POST /api/submissions body, or names the first problem. */
export function buildSubmission(form: ClipForm): { ok: true; payload: SubmissionPayload } | { ok: false; problem: Problem } {
  const name = form.name.trim();
  const url = form.url.trim();
  if (name === '' || url === '') return { ok: false, problem: PROBLEMS.missing };
  const tweet = parseTweetUrl(url);
  if (!tweet) return { ok: false, problem: PROBLEMS.badUrl };
  return {
    ok: true,
    payload: {
      name,
      url,
      externalId: tweet.externalId,
      authorHandle: tweet.authorHandle,
      walletAddress: 'pending',
      additionalInfo: null,
      tokenId: form.streamer && form.streamer !== NO_STREAMER ? form.streamer : null,
    },
  };
}

/** The id POST /api/submissions answered, however it is wrapped ({id} or {submission: {id}}). */
export function submissionIdOf(response: unknown): string | null {
  if (typeof response !== 'object' || response === null) return null;
  const r = response as { id?: unknown; submission?: { id?: unknown } | null };
  const id = r.id ?? r.submission?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** The multipart body of POST /api/submissions/upload-video. */
export function videoUploadForm(video: File, submissionId: string): FormData {
  const data = new FormData();
  data.append('video', video);
  data.append('submissionId', submissionId);
  return data;
}

/**
 * The video's duration in seconds, read by a detached <video> element's loadedmetadata; rejects when
 * the browser cannot read the file.
 */
function readVideoDuration(file: Blob): Promise<number> {
  return new Promise((resolve, reject) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    const done = () => {
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      video.load();
    };
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => {
      const duration = video.duration;
      done();
      resolve(duration);
    };
    video.onerror = () => {
      done();
      reject(new Error('unreadable video'));
    };
    video.src = url;
  });
}

/** How the dialog reads a video's duration (an object, so component tests can stand in for the browser's decoder). */
export const videoMetadata = { readDuration: readVideoDuration };
