import type { adminV1, campaignsV1, identityV1, rewardsV1, submissionsV1 } from '@clipit/contracts';

/**
 * A submission as the admin list shows it: the stored fields, the processed video and poster, the clipper's
 * name, and the earlier clips its video re-uploads with their clippers' names (`users`: by id, as identity
 * answered; a name it did not give is left out), and the hold on its earning as rewards keeps it (ADR 0050).
 */
export function toAdminSubmission(
  s: submissionsV1.Submission,
  users: ReadonlyMap<string, identityV1.User>,
  hold?: adminV1.EarningHold,
): adminV1.AdminSubmission {
  const clipper = users.get(s.userId);
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
    matches: (s.matches ?? []).map((m) => ({
      submissionId: m.submissionId,
      userId: m.userId,
      clipperHandle: users.get(m.userId)?.twitterUsername,
      clipperDisplayName: users.get(m.userId)?.displayName,
      videoDistance: m.videoDistance,
      audioMatches: m.audioMatches,
      kind: m.kind,
    })),
    matchesChecked: s.matchesChecked ?? false,
    ...(s.risk ? { risk: { score: s.risk.score, reasons: s.risk.reasons ?? [], underReview: s.risk.underReview ?? false } } : {}),
    ...(hold ? { hold } : {}),
  };
}

/** A hold on an earning as the admin card shows it: rewards' answer without the ids the card has. */
export function toAdminHold(h: rewardsV1.EarningHold): adminV1.EarningHold {
  return {
    earningId: h.earningId,
    amount: h.amount,
    status: h.status,
    reasons: h.reasons ?? [],
    heldAt: h.heldAt,
    ...(h.decision
      ? { decision: { decision: h.decision.decision, reason: h.decision.reason, by: h.decision.by ?? '', at: h.decision.at } }
      : {}),
  };
}

export const HOLD_DECISIONS = ['release', 'void'] as const;
export type HoldDecision = (typeof HOLD_DECISIONS)[number];

export function isHoldDecision(value: string): value is HoldDecision {
  return (HOLD_DECISIONS as readonly string[]).includes(value);
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
