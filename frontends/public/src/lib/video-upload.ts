// The submission form's flow (spec 01 §4, §7, §8): create the submission, ask for an upload URL, PUT
// the file there, finalize. Each step's failure becomes the spec's own sentence.
import {
  apiJson,
  HttpError,
  type FinalizeVideoUploadRequest,
  type Submission,
  type VideoUploadUrl,
  type VideoUploadUrlRequest,
} from '@clipit/web-api';
import { formatMegabytes, submissionIdOf, type SubmissionPayload } from './clip-submission.js';

/** Bytes of the file the storage URL has taken so far. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export type UploadStage = 'creating' | 'uploading' | 'finalizing';

/** A submission's video state (none, awaiting-upload, processing, ready, rejected). */
export type VideoState = Submission['videoState'];

export const UPLOAD_FAILED = 'Failed to upload video to storage';
export const NO_ID_RETURNED = 'Submission created but no ID was returned';

/** Whole percent sent, 100 only once every byte is. */
export function uploadPercent({ loaded, total }: UploadProgress): number {
  if (total <= 0) return 0;
  if (loaded >= total) return 100;
  return Math.min(99, Math.floor((loaded / total) * 100));
}

/** '2.3 MB of 5.0 MB (46%)'. */
export function progressText(progress: UploadProgress): string {
  return `${formatMegabytes(progress.loaded)} of ${formatMegabytes(progress.total)} (${uploadPercent(progress)}%)`;
}

/** Whether the media worker has given its verdict (or the video is gone): nothing to wait for. */
export function isFinalVideoState(state: VideoState | undefined): boolean {
  return state === 'ready' || state === 'rejected' || state === 'none';
}

/** What the server said, without the status the generic error puts first ("Not signed in"). */
function serverText(error: unknown): string {
  if (error instanceof HttpError) return error.text;
  return error instanceof Error ? error.message : String(error);
}

const failed = (message: string, cause: unknown) => new Error(message, { cause });

/**
 * PUTs the raw file to the upload URL with its content type. XMLHttpRequest, not fetch: only its
 * upload events say how many bytes have gone. Rejects with an AbortError when `signal` aborts.
 */
export function putVideoFile(
  uploadUrl: string,
  file: File,
  { onProgress, signal }: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const settle = (done: () => void) => {
      signal?.removeEventListener('abort', abort);
      done();
    };
    xhr.open('PUT', uploadUrl);
    xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () =>
      settle(() => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress?.({ loaded: file.size, total: file.size });
          resolve();
        } else {
          reject(new HttpError(xhr.status, xhr.responseText || xhr.statusText));
        }
      });
    xhr.onerror = () => settle(() => reject(new Error('network error')));
    xhr.onabort = () => settle(() => reject(new DOMException('The upload was aborted', 'AbortError')));
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(file);
  });
}

export interface SubmittedClip {
  submissionId: string;
  videoId: string;
  /** The submission as finalize answered it (its video processing). */
  submission: Submission;
}

/** The four calls of the form's flow; a failure names its step (spec 01 §8), its cause kept. */
export async function submitClipWithVideo(
  payload: SubmissionPayload,
  file: File,
  options: { onStage?: (stage: UploadStage) => void; onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<SubmittedClip> {
  const { onStage, onProgress, signal } = options;
  onStage?.('creating');
  let created: unknown;
  try {
    created = await apiJson<Submission>('POST', '/api/submissions', payload);
  } catch (error) {
    throw failed(`Failed to create submission: ${serverText(error)}`, error);
  }
  const submissionId = submissionIdOf(created);
  if (!submissionId) throw new Error(NO_ID_RETURNED);

  let upload: VideoUploadUrl;
  try {
    upload = await apiJson<VideoUploadUrl>('POST', '/api/submissions/video-upload-url', { submissionId } satisfies VideoUploadUrlRequest);
  } catch (error) {
    throw failed(`Failed to get upload URL: ${serverText(error)}`, error);
  }

  onStage?.('uploading');
  onProgress?.({ loaded: 0, total: file.size });
  try {
    await putVideoFile(upload.uploadUrl, file, { onProgress, signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw failed(UPLOAD_FAILED, error);
  }

  onStage?.('finalizing');
  try {
    const submission = await apiJson<Submission>('POST', '/api/submissions/finalize-video-upload', {
      submissionId,
      videoId: upload.videoId,
    } satisfies FinalizeVideoUploadRequest);
    return { submissionId, videoId: upload.videoId, submission };
  } catch (error) {
    throw failed(`Failed to finalize video upload: ${serverText(error)}`, error);
  }
}
