// The add-clip dialog's rules (spec 01 §3, §5): the post link, the optional video, the payload. The
// rules and their words are @clipit/field-rules', which the gateway and the services apply too.
import {
  isVideoContentType,
  isVideoTooLong,
  parsePostUrl,
  POST_PROBLEMS,
  VIDEO_LIMITS,
  VIDEO_PROBLEMS,
  type Problem,
} from '@clipit/field-rules';
import type { CreateSubmissionRequest } from '@clipit/web-api';

/** The file picker's filter (checkVideoFile is what decides). */
export const VIDEO_ACCEPT = VIDEO_LIMITS.contentTypes.join(',');
/** The picker's hint, from the same limits. */
export const VIDEO_HINT = `MP4, WebM, MOV or AVI; at most ${VIDEO_LIMITS.maxBytes / (1024 * 1024)}MB and ${VIDEO_LIMITS.maxDurationSeconds} seconds.`;
/** The streamer select's value for "no streamer". */
export const NO_STREAMER = 'none';

/** The type and size checks of a chosen video (the duration needs the browser: see readVideoDuration). */
export function checkVideoFile(file: Pick<File, 'type' | 'size'>): Problem | null {
  if (!isVideoContentType(file.type)) return VIDEO_PROBLEMS.invalidType;
  if (file.size > VIDEO_LIMITS.maxBytes) return VIDEO_PROBLEMS.tooLarge;
  return null;
}

/** The duration check: whole seconds (floored), at most 40; a duration the browser could not read is no video. */
export function checkVideoDuration(durationSeconds: number): Problem | null {
  if (!Number.isFinite(durationSeconds) || durationSeconds < 0) return VIDEO_PROBLEMS.invalid;
  return isVideoTooLong(durationSeconds) ? VIDEO_PROBLEMS.tooLong(durationSeconds) : null;
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

type Checked = { ok: true; payload: SubmissionPayload } | { ok: false; problem: Problem };

/** What both forms require first: a title and a post link, the link an X post's (the body's post fields). */
function checkPost(
  form: ClipForm,
  missing: Problem,
): { ok: true; fields: Pick<SubmissionPayload, 'name' | 'url' | 'externalId' | 'authorHandle'> } | { ok: false; problem: Problem } {
  const name = form.name.trim();
  const url = form.url.trim();
  if (name === '' || url === '') return { ok: false, problem: missing };
  const post = parsePostUrl(url);
  if (!post) return { ok: false, problem: POST_PROBLEMS.invalidUrl };
  return { ok: true, fields: { name, url, externalId: post.externalId, authorHandle: post.authorHandle } };
}

const chosenStreamer = (form: ClipForm) => (form.streamer && form.streamer !== NO_STREAMER ? form.streamer : null);

/** Checks the form and builds the POST /api/submissions body, or names the first problem. */
export function buildSubmission(form: ClipForm): Checked {
  const post = checkPost(form, POST_PROBLEMS.missingInformation);
  if (!post.ok) return post;
  return { ok: true, payload: { ...post.fields, walletAddress: 'pending', additionalInfo: null, tokenId: chosenStreamer(form) } };
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

// The submission form of /submit (spec 01 §3, §5): the same post rules, its own words, a required
// video and an optional note of at most 150 characters.

/** The longest additional info the form takes (extra input is ignored). */
export const ADDITIONAL_INFO_MAX = 150;

/** The form's refusals, in the spec's words (§5, §8). */
export const SUBMISSION_FORM_PROBLEMS = {
  missingInformation: { title: 'Missing Information', description: 'Please fill in all required fields.' },
  videoRequired: { title: 'Video Required', description: "Please upload a video. Your clip won't appear in the feed without a video." },
} as const satisfies Record<string, Problem>;

export interface SubmissionFormValues extends ClipForm {
  additionalInfo: string;
}

/** The form's POST /api/submissions body: an empty wallet, the note or null, the streamer or null. */
export function buildFormSubmission(form: SubmissionFormValues, hasVideo: boolean): Checked {
  const post = checkPost(form, SUBMISSION_FORM_PROBLEMS.missingInformation);
  if (!post.ok) return post;
  if (!hasVideo) return { ok: false, problem: SUBMISSION_FORM_PROBLEMS.videoRequired };
  const note = form.additionalInfo.trim().slice(0, ADDITIONAL_INFO_MAX);
  return {
    ok: true,
    payload: { ...post.fields, walletAddress: '', additionalInfo: note === '' ? null : note, streamerId: chosenStreamer(form) },
  };
}
