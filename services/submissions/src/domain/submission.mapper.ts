import type { SubmissionSnapshot, submissionsV1 } from '@clipit/contracts';
import type { SubmissionEntity } from '../entities/submission.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
// Counts are bigint columns: a row TypeORM filled in after an insert carries them as strings.

/** A submission as the gRPC contract carries it. */
export function toSubmissionMessage(s: SubmissionEntity): submissionsV1.Submission {
  return {
    id: s.id,
    userId: s.userId,
    name: s.name,
    url: s.url,
    platform: s.platform,
    externalId: s.externalId,
    authorHandle: s.authorHandle,
    walletAddress: s.walletAddress,
    additionalInfo: opt(s.additionalInfo),
    tokenId: opt(s.tokenId),
    streamerId: opt(s.streamerId),
    status: s.status,
    addedToFeed: s.addedToFeed,
    rejectedReason: opt(s.rejectedReason),
    approvedAt: opt(iso(s.approvedAt)),
    videoState: s.videoState,
    hasVideo: s.hasVideo,
    isProcessing: s.videoState === 'processing',
    videoUrl: opt(s.videoUrl),
    videoThumbnailUrl: opt(s.videoThumbnailUrl),
    videoDuration: opt(s.videoDuration),
    videoAspectRatio: opt(s.videoAspectRatio),
    playbackId: opt(s.muxPlaybackId),
    videoRejectedReason: opt(s.videoRejectedReason),
    videoFileName: opt(s.videoFileName),
    videoFileSize: s.videoFileSize === null ? undefined : Number(s.videoFileSize),
    views: Number(s.views),
    likes: Number(s.likes),
    retweets: Number(s.retweets),
    replies: Number(s.replies),
    publishedAt: opt(iso(s.publishedAt)),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** A submission as every submission event carries it (the read models' source). */
export function toSnapshot(s: SubmissionEntity): SubmissionSnapshot {
  return {
    id: s.id,
    userId: s.userId,
    name: s.name,
    url: s.url,
    platform: s.platform,
    externalId: s.externalId,
    authorHandle: s.authorHandle,
    walletAddress: s.walletAddress,
    additionalInfo: s.additionalInfo,
    tokenId: s.tokenId,
    streamerId: s.streamerId,
    status: s.status,
    addedToFeed: s.addedToFeed,
    rejectedReason: s.rejectedReason,
    approvedAt: iso(s.approvedAt),
    videoState: s.videoState,
    hasVideo: s.hasVideo,
    videoUrl: s.videoUrl,
    videoThumbnailUrl: s.videoThumbnailUrl,
    videoDuration: s.videoDuration,
    videoAspectRatio: s.videoAspectRatio,
    playbackId: s.muxPlaybackId,
    views: Number(s.views),
    likes: Number(s.likes),
    retweets: Number(s.retweets),
    replies: Number(s.replies),
    publishedAt: iso(s.publishedAt),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
