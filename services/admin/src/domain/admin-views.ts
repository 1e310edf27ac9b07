import type { adminV1, identityV1, submissionsV1 } from '@clipit/contracts';

/** A submission as the admin list shows it: the stored fields, the processed video and poster, and the clipper's name. */
export function toAdminSubmission(s: submissionsV1.Submission, clipper: identityV1.User | undefined): adminV1.AdminSubmission {
  return {
    id: s.id,
    userId: s.userId,
    name: s.name,
    url: s.url,
    platform: s.platform,
    walletAddress: s.walletAddress,
    additionalInfo: s.additionalInfo,
    status: s.status,
    addedToFeed: s.addedToFeed,
    rejectedReason: s.rejectedReason,
    approvedAt: s.approvedAt,
    hasVideo: s.hasVideo,
    isProcessing: s.isProcessing,
    videoState: s.videoState,
    videoUrl: s.videoUrl,
    posterUrl: s.videoThumbnailUrl,
    playbackId: s.playbackId,
    videoRejectedReason: s.videoRejectedReason,
    videoDuration: s.videoDuration,
    createdAt: s.createdAt,
    clipperHandle: clipper?.twitterUsername,
    clipperDisplayName: clipper?.displayName,
  };
}

export function toAdminPlaceholder(p: identityV1.PlaceholderStreamer): adminV1.PlaceholderStreamer {
  return { ...p };
}

export const MODERATION_ACTIONS = ['approve', 'approve-and-add-to-feed', 'reject', 'add-to-feed', 'remove-from-feed'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export function isModerationAction(value: string): value is ModerationAction {
  return (MODERATION_ACTIONS as readonly string[]).includes(value);
}
