import type { MediaProcessedV1 } from '@clipit/contracts';
import { bareContentType, isVideoContentType, VIDEO_LIMITS } from '@clipit/field-rules';
import { failedPrecondition, forbidden, invalid, notFound, tooLarge, type DomainError } from '@clipit/service-kit';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import type { VideoUploadEntity } from '../entities/video-upload.entity.js';
import { messages } from './messages.js';
import { uploadTokenMatches } from './upload-token.js';

// A submission's video, from an upload URL to the media worker's verdict: the checks and the state
// changes, on entities already loaded (and locked) by the caller. Nothing here reads or writes.
// The functions that change a video answer whether the submission changed too: an upload that a
// newer one replaced changes only itself.

/** Only the submitter attaches a video to a submission. */
export function requireOwner(submission: SubmissionEntity | undefined, userId: string): SubmissionEntity {
  if (!submission) throw notFound(messages.submissionNotFound);
  if (submission.userId !== userId) throw forbidden(messages.notYourSubmission);
  return submission;
}

/** A new upload may start unless the submission is rejected or its video is ready or being processed. */
export function requireVideoSlot(submission: SubmissionEntity): void {
  if (submission.status === 'rejected') throw failedPrecondition(messages.submissionRejected);
  if (submission.videoState === 'ready') throw failedPrecondition(messages.alreadyHasVideo);
  if (submission.videoState === 'processing') throw failedPrecondition(messages.videoInProgress);
}

/** The new upload becomes the submission's video; one never finished is replaced (its object is swept when it expires). */
export function attachUpload(submission: SubmissionEntity, upload: VideoUploadEntity, now: Date): void {
  Object.assign(submission, {
    videoState: 'awaiting-upload',
    videoId: upload.id,
    muxUploadId: upload.id,
    muxStatus: 'waiting',
    videoRejectedReason: null,
    guideChecks: null,
    videoProcessing: null,
    videoMatches: null,
    updatedAt: now,
  } satisfies Partial<SubmissionEntity>);
}

/** The gateway may take bytes for this upload: the token is its own, and it is still waiting and unexpired. */
export function acceptsBytes(upload: VideoUploadEntity | undefined, token: string, now: Date): upload is VideoUploadEntity {
  return (
    upload !== undefined &&
    upload.status === 'awaiting-upload' &&
    upload.expiresAt.getTime() > now.getTime() &&
    uploadTokenMatches(upload.tokenHash, token)
  );
}

/** The upload can be finalized by this user for this submission now; otherwise the reason, in this order. */
export function requireFinalizable(
  submission: SubmissionEntity,
  upload: VideoUploadEntity | undefined,
  userId: string,
  now: Date,
): VideoUploadEntity {
  if (!upload || upload.userId !== userId) throw notFound(messages.uploadNotFound);
  if (upload.submissionId !== submission.id) throw invalid(messages.uploadWrongSubmission);
  // Expired unused, as before the sweeper got to it: gone, not "already finalized".
  if (upload.status === 'expired') throw notFound(messages.uploadNotFound);
  if (upload.status !== 'awaiting-upload') throw failedPrecondition(messages.uploadNotPending);
  if (upload.expiresAt.getTime() <= now.getTime()) throw notFound(messages.uploadNotFound);
  if (submission.status === 'rejected') throw failedPrecondition(messages.submissionRejected);
  return upload;
}

/** What can be refused without reading the bytes: over 150 MB, not a video type, empty. */
export function storedVideoRefusal(size: number, contentType: string | null | undefined): DomainError | undefined {
  if (size > VIDEO_LIMITS.maxBytes) return tooLarge(messages.fileTooLarge);
  if (!isVideoContentType(contentType)) return invalid(messages.invalidFileType);
  if (size === 0) return invalid(messages.invalidVideo);
  return undefined;
}

/** Finalized: the video is processing (and counts toward the daily limit from now). */
export function startProcessing(
  submission: SubmissionEntity,
  upload: VideoUploadEntity,
  file: { size: number; contentType: string | null | undefined; fileName: string | undefined },
  now: Date,
): void {
  Object.assign(upload, {
    status: 'processing',
    contentType: bareContentType(file.contentType),
    fileName: file.fileName || upload.fileName,
    fileSize: file.size,
    finalizedAt: now,
  } satisfies Partial<VideoUploadEntity>);
  Object.assign(submission, {
    videoState: 'processing',
    videoId: upload.id,
    videoFileName: upload.fileName,
    videoFileSize: file.size,
    muxStatus: 'processing',
    videoRejectedReason: null,
    updatedAt: now,
  } satisfies Partial<SubmissionEntity>);
}

/** The queue refused the job: back to waiting, so finalizing again works. */
export function stopProcessing(submission: SubmissionEntity, upload: VideoUploadEntity, now: Date): void {
  Object.assign(upload, { status: 'awaiting-upload', finalizedAt: null } satisfies Partial<VideoUploadEntity>);
  Object.assign(submission, { videoState: 'awaiting-upload', muxStatus: 'waiting', updatedAt: now } satisfies Partial<SubmissionEntity>);
}

/** The video is refused: the upload records why; the submission, if this is its video, is left without video, with the reason. */
export function refuseVideo(submission: SubmissionEntity, upload: VideoUploadEntity, reason: string, now: Date): boolean {
  Object.assign(upload, { status: 'rejected', reason, completedAt: now } satisfies Partial<VideoUploadEntity>);
  if (submission.videoId !== upload.id) return false;
  Object.assign(submission, {
    videoState: 'rejected',
    hasVideo: false,
    videoRejectedReason: reason,
    muxStatus: 'errored',
    updatedAt: now,
  } satisfies Partial<SubmissionEntity>);
  return true;
}

/** The media worker processed the video: where it is served (under `mediaBaseUrl`), its poster, length and shape. */
export function videoReady(
  submission: SubmissionEntity,
  upload: VideoUploadEntity,
  data: MediaProcessedV1,
  mediaBaseUrl: string,
  now: Date,
): boolean {
  Object.assign(upload, { status: 'ready', completedAt: now } satisfies Partial<VideoUploadEntity>);
  if (submission.videoId !== upload.id) return false;
  Object.assign(submission, {
    videoState: 'ready',
    hasVideo: true,
    videoUrl: `${mediaBaseUrl}/${data.video.key}`,
    videoThumbnailUrl: `${mediaBaseUrl}/${data.poster.key}`,
    videoDuration: data.durationSeconds,
    videoAspectRatio: data.aspectRatio,
    muxPlaybackId: data.playbackId,
    muxAssetId: data.videoId,
    muxStatus: 'ready',
    videoRejectedReason: null,
    guideChecks: data.guideChecks ?? null,
    videoProcessing: data.processing ?? null,
    updatedAt: now,
  } satisfies Partial<SubmissionEntity>);
  return true;
}

/** An upload URL that expired unused: forgotten, and the submission, if still waiting on it, back to no video. */
export function expireUpload(submission: SubmissionEntity, upload: VideoUploadEntity, now: Date): boolean {
  upload.status = 'expired';
  if (submission.videoId !== upload.id || submission.videoState !== 'awaiting-upload') return false;
  Object.assign(submission, {
    videoState: 'none',
    videoId: null,
    muxUploadId: null,
    muxStatus: null,
    updatedAt: now,
  } satisfies Partial<SubmissionEntity>);
  return true;
}
