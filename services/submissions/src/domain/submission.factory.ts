import { randomUUID } from 'node:crypto';
import { mediaKeys } from '@clipit/contracts';
import { SubmissionEntity } from '../entities/submission.entity.js';
import { VideoUploadEntity } from '../entities/video-upload.entity.js';
import type { CheckedSubmission } from './submission-input.js';
import { newVerificationCode } from './verification.js';

/**
 * A new submission as it is first stored: pending moderation, no video, no metrics yet, a verification
 * code of its own. Every column is set here (not left to the database's defaults), because the
 * repository inserts the entity as built and the events carry it as it is.
 */
export function newSubmission(userId: string, checked: CheckedSubmission, now: Date, id: string = randomUUID()): SubmissionEntity {
  return Object.assign(new SubmissionEntity(), {
    id,
    userId,
    ...checked,
    verificationCode: newVerificationCode(),
    verifiedAt: null,
    status: 'pending',
    addedToFeed: false,
    rejectedReason: null,
    approvedAt: null,
    videoState: 'none',
    hasVideo: false,
    videoId: null,
    videoRejectedReason: null,
    videoFileName: null,
    videoFileSize: null,
    muxAssetId: null,
    muxUploadId: null,
    muxStatus: null,
    muxPlaybackId: null,
    videoUrl: null,
    videoThumbnailUrl: null,
    videoDuration: null,
    videoAspectRatio: null,
    guideChecks: null,
    videoProcessing: null,
    views: 0,
    likes: 0,
    retweets: 0,
    replies: 0,
    quoteCount: 0,
    bookmarkCount: 0,
    publishedAt: null,
    lastMetricsFetch: null,
    rawMetrics: null,
    metricsDueAt: null,
    metricsQueuedAt: null,
    metricsMissingCount: 0,
    postStatus: 'unchecked',
    riskScore: null,
    riskReasons: null,
    earningHold: null,
    earningId: null,
    earningHoldReasons: null,
    earningHoldAt: null,
    createdAt: now,
    updatedAt: now,
  } satisfies Partial<SubmissionEntity>);
}

export interface NewVideoUpload {
  submissionId: string;
  userId: string;
  /** SHA-256 of the upload token (see upload-token.ts): the secret itself is never stored. */
  tokenHash: string;
  contentType: string | null;
  fileName: string | null;
  expiresAt: Date;
}

/** An upload waiting for its bytes; its id is the video id, and its object lives under uploads/<videoId>. */
export function newVideoUpload(fields: NewVideoUpload, now: Date, id: string = randomUUID()): VideoUploadEntity {
  return Object.assign(new VideoUploadEntity(), {
    id,
    ...fields,
    storageKey: mediaKeys.upload(id),
    status: 'awaiting-upload',
    fileSize: null,
    reason: null,
    finalizedAt: null,
    completedAt: null,
    createdAt: now,
  } satisfies VideoUploadEntity);
}
