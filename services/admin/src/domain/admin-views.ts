import type { adminV1, campaignsV1, identityV1, submissionsV1 } from '@clipit/contracts';

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
    guideChecks: s.guideChecks,
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

/** A CPM campaign as the Campaigns tab shows it: the owner's fields, with the streamer's name and handle. */
export function toAdminCampaign(c: campaignsV1.CpmCampaign): adminV1.AdminCampaign {
  return {
    id: c.id,
    streamerId: c.streamerId,
    streamerDisplayName: c.streamerDisplayName || undefined,
    streamerHandle: c.streamerTwitterUsername || undefined,
    title: c.title,
    description: c.description,
    targetViews: Number(c.targetViews),
    budgetAmount: c.budgetAmount,
    contentLink: c.contentLink,
    status: c.status,
    deliveredViews: Number(c.deliveredViews),
    rejectedReason: c.rejectedReason,
    reviewedBy: c.reviewedBy,
    reviewedAt: c.reviewedAt,
    approvedAt: c.approvedAt,
    completedAt: c.completedAt,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export const CAMPAIGN_DECISIONS = ['approve', 'reject'] as const;
export type CampaignDecision = (typeof CAMPAIGN_DECISIONS)[number];

export function isCampaignDecision(value: string): value is CampaignDecision {
  return (CAMPAIGN_DECISIONS as readonly string[]).includes(value);
}

export const CAMPAIGN_STATUSES = ['pending', 'approved', 'rejected', 'completed'] as const;

export function isCampaignStatus(value: string): boolean {
  return (CAMPAIGN_STATUSES as readonly string[]).includes(value);
}

/** The longest rejection reason a streamer is shown (the submissions rule, spec 02 §5). */
export const CAMPAIGN_REASON_MAX = 500;
