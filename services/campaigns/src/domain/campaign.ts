import type { campaignsV1, CampaignStatus, ClipperTier, CpmCampaignSnapshot, SubmissionSnapshot } from '@clipit/contracts';
import type { CpmCampaignDraft } from '@clipit/field-rules';
import { dollars } from './messages.js';

export const CAMPAIGN_STATUSES = ['pending', 'approved', 'rejected', 'completed'] as const satisfies readonly CampaignStatus[];
export const isCampaignStatus = (value: string): value is CampaignStatus => (CAMPAIGN_STATUSES as readonly string[]).includes(value);

/** A CPM campaign (spec 02 §3 cpm_campaigns); the budget is dollars with two decimals, as text. */
export interface Campaign {
  id: string;
  streamerId: string;
  title: string;
  description: string;
  targetViews: number;
  budgetAmount: string;
  contentLink: string | null;
  status: CampaignStatus;
  deliveredViews: number;
  /** The highest 10 % step of the target already announced (0 to 10; 10: completed), so each is told once. */
  announcedProgressStep: number;
  rejectedReason: string | null;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  approvedAt: Date | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The streamer's names as identity's events told them (absent until known). */
export interface StreamerNames {
  displayName: string | null;
  twitterUsername: string | null;
}

/**
 * "Gold unlocks paid campaigns" (spec 02 §6, ADR 0041): a clip counts toward a CPM campaign's delivered
 * views only while its clipper holds the gold points tier (the highest; Diamond is a user tier, not a
 * points tier), as rewards last told campaigns.
 */
export const PAID_CAMPAIGN_TIER: ClipperTier = 'gold';

export function countsTowardCampaigns(clipperTier: ClipperTier | undefined): boolean {
  return clipperTier === PAID_CAMPAIGN_TIER;
}

/** A new campaign from a checked draft: pending, nothing delivered. */
export function newCampaign(id: string, streamerId: string, draft: CpmCampaignDraft, now: Date): Campaign {
  return {
    id,
    streamerId,
    title: draft.title,
    description: draft.description,
    targetViews: draft.targetViews,
    budgetAmount: dollars(draft.budgetAmount),
    contentLink: draft.contentLink,
    status: 'pending',
    deliveredViews: 0,
    announcedProgressStep: 0,
    rejectedReason: null,
    reviewedBy: null,
    reviewedAt: null,
    approvedAt: null,
    completedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A pending campaign after its review: approved (its views start counting now) or rejected with its reason. */
export function reviewed(c: Campaign, decision: 'approve' | 'reject', reviewedBy: string, reason: string | null, now: Date): Campaign {
  return decision === 'approve'
    ? { ...c, status: 'approved', reviewedBy, reviewedAt: now, approvedAt: now, rejectedReason: null, updatedAt: now }
    : { ...c, status: 'rejected', reviewedBy, reviewedAt: now, rejectedReason: reason, updatedAt: now };
}

/**
 * A running campaign's progress (ADR 0027): the views of the streamer's approved clips approved from the
 * campaign's approval on, capped at the target; reaching the target completes it.
 */
export function progress(targetViews: number, viewsSinceApproval: number): { deliveredViews: number; completed: boolean } {
  const deliveredViews = Math.max(0, Math.min(targetViews, Math.floor(viewsSinceApproval)));
  return { deliveredViews, completed: deliveredViews >= targetViews };
}

/** How many whole 10 % steps of the target the delivered views have reached: 0 to 10 (10: the target). */
export function progressStep(deliveredViews: number, targetViews: number): number {
  return Math.max(0, Math.min(10, Math.floor((deliveredViews * 10) / targetViews)));
}

/**
 * The running campaign with its new progress, completed at `now` when it reached the target. The
 * announced step only rises: views that fall back (a metric correction) and rise again announce nothing twice.
 */
export function withProgress(c: Campaign, viewsSinceApproval: number, now: Date): Campaign {
  const p = progress(c.targetViews, viewsSinceApproval);
  const announcedProgressStep = Math.max(c.announcedProgressStep, progressStep(p.deliveredViews, c.targetViews));
  return p.completed
    ? { ...c, deliveredViews: p.deliveredViews, announcedProgressStep, status: 'completed', completedAt: now, updatedAt: now }
    : { ...c, deliveredViews: p.deliveredViews, announcedProgressStep, updatedAt: now };
}

/**
 * The percent campaign.progress tells after `before` became `next` (issue 37): the highest 10 % step newly
 * crossed, once, so a jump from 5 % to 35 % tells 30 %; none at the target, which campaign.completed tells.
 */
export function progressToAnnounce(before: Campaign, next: Campaign): number | undefined {
  const step = next.announcedProgressStep;
  return next.status === 'approved' && step > before.announcedProgressStep && step < 10 ? step * 10 : undefined;
}

/**
 * The approvals a campaign counts (ADR 0027): its streamer's clips approved from the campaign's approval on,
 * until its completion once completed (it counts nothing after). None before it is approved, nor when rejected.
 */
export interface CountingWindow {
  since: Date;
  until: Date | null;
}

export function countingWindow(c: Campaign): CountingWindow | undefined {
  if (!c.approvedAt || (c.status !== 'approved' && c.status !== 'completed')) return undefined;
  return { since: c.approvedAt, until: c.status === 'completed' ? c.completedAt : null };
}

/**
 * Whether a clip's views are held out of a campaign's verified views (issue 37): its views are under review
 * (ADR 0049) or it is flagged, by a video match or its views (ADR 0050), as its latest snapshot says.
 */
export function clipUnderReview(s: Pick<SubmissionSnapshot, 'risk' | 'hold'>): boolean {
  return s.risk?.underReview === true || (s.hold ?? null) !== null;
}

/**
 * A campaign's verified views (issue 37): the views of its counted clips that are not under review, never
 * above its delivered views (which stop at the target, and stop moving once it completes); 0 before approval.
 */
export function verifiedViews(c: Campaign, viewsNotUnderReview: number): number {
  return countingWindow(c) ? Math.max(0, Math.min(c.deliveredViews, Math.floor(viewsNotUnderReview))) : 0;
}

const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);
const opt = <T>(v: T | null): T | undefined => v ?? undefined;

/** The gRPC shape: absent optional fields stay absent; int64 as numbers. */
export function toCampaignMessage(c: Campaign, names?: StreamerNames): campaignsV1.CpmCampaign {
  return {
    id: c.id,
    streamerId: c.streamerId,
    title: c.title,
    description: c.description,
    targetViews: c.targetViews,
    budgetAmount: c.budgetAmount,
    contentLink: opt(c.contentLink),
    status: c.status,
    deliveredViews: c.deliveredViews,
    rejectedReason: opt(c.rejectedReason),
    reviewedBy: opt(c.reviewedBy),
    reviewedAt: iso(c.reviewedAt),
    approvedAt: iso(c.approvedAt),
    completedAt: iso(c.completedAt),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    streamerDisplayName: opt(names?.displayName ?? null),
    streamerTwitterUsername: opt(names?.twitterUsername ?? null),
  };
}

/** What the campaign.* events carry. */
export function toCampaignSnapshot(c: Campaign): CpmCampaignSnapshot {
  return {
    id: c.id,
    streamerId: c.streamerId,
    title: c.title,
    description: c.description,
    targetViews: c.targetViews,
    budgetAmount: c.budgetAmount,
    contentLink: c.contentLink,
    status: c.status,
    deliveredViews: c.deliveredViews,
    rejectedReason: c.rejectedReason,
    reviewedBy: c.reviewedBy,
    reviewedAt: c.reviewedAt?.toISOString() ?? null,
    approvedAt: c.approvedAt?.toISOString() ?? null,
    completedAt: c.completedAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
