import type { adminV1 } from '@clipit/contracts';
import { REJECT_REASON_MAX, REJECT_REASON_MESSAGES } from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';
import { guideChecksField, toGuideChecksJson } from '../media/guide-checks.schemas.js';
import { earningHoldField, toEarningHoldJson } from './earning-holds.schemas.js';
import { toVideoMatchesJson, videoMatchesField } from './video-matches.schemas.js';
import { toViewRiskJson, viewRiskField } from './view-risk.schemas.js';

// The admin area's bodies and answers (ADR 0020). Field rules are the owners' (identity for
// placeholders, submissions for a rejection reason); these only check shapes, so the owner's words
// reach the admin.

const text = (field: string, max: number) => z.string({ error: `${field} must be text` }).max(max, `${field} is too long`);

export const verifyPasswordBody = strictBody({
  // Never trimmed: spaces are characters of a password.
  password: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'Password is required' : 'Password must be text') })
    .max(1024, 'Password is too long'),
});
export type VerifyPasswordBody = z.infer<typeof verifyPasswordBody>;

export const adminTokenSchema = z.object({ token: z.string(), expiresAt: z.string() }).meta({ id: 'AdminToken' });

/** The moderation commands take an empty JSON object. */
export const emptyBody = strictBody({});

export const rejectBody = strictBody({
  reason: text('Rejection reason', 100_000)
    .trim()
    .max(REJECT_REASON_MAX, REJECT_REASON_MESSAGES.tooLong)
    .nullish()
    .transform((v) => (v ? v : undefined)),
});
export type RejectBody = z.infer<typeof rejectBody>;

export const createPlaceholderBody = strictBody({
  displayName: text('Display name', 1000).nullish(),
  twitterUsername: text('Twitter username', 1000).nullish(),
  profileImageUrl: text('Profile image URL', 4000).nullish(),
  bannerImageUrl: text('Banner image URL', 4000).nullish(),
  // The form's number input may send a number or its text.
  streamerMultiplier: z.union([z.number({ error: 'Streamer multiplier must be a number' }), text('Streamer multiplier', 32)]).nullish(),
});
export type CreatePlaceholderBody = z.infer<typeof createPlaceholderBody>;

const flag = z.enum(['true', 'false']);

export const adminSubmissionSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    url: z.string(),
    platform: z.enum(['twitter', 'instagram', 'tiktok', 'other']),
    walletAddress: z.string(),
    additionalInfo: z.string().nullable(),
    status: z.enum(['pending', 'approved', 'rejected']),
    addedToFeed: flag,
    rejectedReason: z.string().nullable(),
    approvedAt: z.string().nullable(),
    createdAt: z.string(),
    hasVideo: flag,
    isProcessing: z.boolean(),
    videoState: z.enum(['none', 'awaiting-upload', 'processing', 'ready', 'rejected']),
    videoUrl: z.string().nullable().describe('The processed video, once it is ready'),
    posterUrl: z.string().nullable(),
    muxPlaybackId: z.string().nullable(),
    videoRejectedReason: z.string().nullable(),
    videoDuration: z.number().nullable(),
    clipperHandle: z.string().nullable(),
    clipperDisplayName: z.string().nullable(),
    guideChecks: guideChecksField,
    matches: videoMatchesField,
    risk: viewRiskField,
    hold: earningHoldField,
  })
  .meta({ id: 'AdminSubmission' });
export type AdminSubmissionJson = z.infer<typeof adminSubmissionSchema>;

export const adminSubmissionPageSchema = z
  .object({
    submissions: z.array(adminSubmissionSchema),
    nextCursor: z.string().nullable(),
    total: z.number().int(),
    createdLast7Days: z.number().int(),
  })
  .meta({ id: 'AdminSubmissionPage' });
export type AdminSubmissionPageJson = z.infer<typeof adminSubmissionPageSchema>;

export const placeholderStreamerSchema = z
  .object({
    id: z.string(),
    displayName: z.string(),
    twitterUsername: z.string(),
    profileImageUrl: z.string().nullable(),
    bannerImageUrl: z.string().nullable(),
    streamerMultiplier: z.string(),
    claimCode: z.string(),
    claimedBy: z.string().nullable(),
    claimedAt: z.string().nullable(),
    claimedByDisplayName: z.string().nullable(),
    claimedByHandle: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'PlaceholderStreamer' });
export type PlaceholderStreamerJson = z.infer<typeof placeholderStreamerSchema>;
export const placeholderStreamerListSchema = z.array(placeholderStreamerSchema);

export const clipperApplicationSchema = z
  .object({
    id: z.string(),
    fullName: z.string(),
    email: z.string(),
    socialMediaHandles: z.string().nullable(),
    availabilityHours: z.number().int().nullable(),
    experience: z.string(),
    whyJoin: z.string(),
    portfolioLinks: z.string().nullable(),
    status: z.enum(['pending', 'approved', 'rejected']),
    notes: z.string().nullable(),
    reviewedBy: z.string().nullable(),
    reviewedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ClipperApplication' });
export type ClipperApplicationJson = z.infer<typeof clipperApplicationSchema>;

export const clipperApplicationPageSchema = z
  .object({ applications: z.array(clipperApplicationSchema), nextCursor: z.string().nullable(), total: z.number().int() })
  .meta({ id: 'ClipperApplicationPage' });

export const ADMIN_CAMPAIGN_STATUSES = ['pending', 'approved', 'rejected', 'completed'] as const;
const adminCampaignStatusSchema = z.enum(ADMIN_CAMPAIGN_STATUSES);

/** Reject a campaign: the optional reason the streamer is shown (at most 500 characters, like a submission's). */
export const rejectCampaignBody = rejectBody;
export type RejectCampaignBody = RejectBody;

export const adminCampaignSchema = z
  .object({
    id: z.string(),
    streamerId: z.string(),
    streamerDisplayName: z.string().nullable(),
    streamerHandle: z.string().nullable().describe('The streamer’s X handle, without the @'),
    title: z.string(),
    description: z.string(),
    targetViews: z.number().int(),
    budgetAmount: z.number().describe('Dollars'),
    contentLink: z.string().nullable(),
    status: adminCampaignStatusSchema,
    deliveredViews: z.number().int().describe('Views delivered so far (ADR 0027), capped at the target'),
    progressPercent: z.number().describe('deliveredViews / targetViews × 100, one decimal'),
    rejectedReason: z.string().nullable(),
    reviewedBy: z.string().nullable().describe('The id of the admin token it was reviewed with'),
    reviewedAt: z.string().nullable(),
    approvedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AdminCampaign' });
export type AdminCampaignJson = z.infer<typeof adminCampaignSchema>;

export const adminCampaignPageSchema = z
  .object({ campaigns: z.array(adminCampaignSchema).describe('Newest first'), nextCursor: z.string().nullable(), total: z.number().int() })
  .meta({ id: 'AdminCampaignPage' });
export type AdminCampaignPageJson = z.infer<typeof adminCampaignPageSchema>;

export const auditEntrySchema = z
  .object({
    id: z.string(),
    action: z.string(),
    target: z.string().nullable(),
    result: z.enum(['ok', 'refused', 'failed']),
    detail: z.string().nullable(),
    actor: z.string().nullable().describe('The id of the admin token it was done with'),
    clientIp: z.string().nullable(),
    correlationId: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export const auditPageSchema = z
  .object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditPage' });
export type AuditPageJson = z.infer<typeof auditPageSchema>;

const nul = <T>(v: T | undefined): T | null => v ?? null;
const PLATFORMS = new Set(['twitter', 'instagram', 'tiktok', 'other']);
const VIDEO_STATES = new Set(['none', 'awaiting-upload', 'processing', 'ready', 'rejected']);

export function toAdminSubmissionJson(s: adminV1.AdminSubmission): AdminSubmissionJson {
  return {
    id: s.id,
    userId: s.userId,
    name: s.name,
    url: s.url,
    platform: (PLATFORMS.has(s.platform) ? s.platform : 'other') as AdminSubmissionJson['platform'],
    walletAddress: s.walletAddress,
    additionalInfo: nul(s.additionalInfo),
    status: s.status as AdminSubmissionJson['status'],
    addedToFeed: s.addedToFeed ? 'true' : 'false',
    rejectedReason: nul(s.rejectedReason),
    approvedAt: nul(s.approvedAt),
    createdAt: s.createdAt,
    hasVideo: s.hasVideo ? 'true' : 'false',
    isProcessing: s.isProcessing,
    videoState: (VIDEO_STATES.has(s.videoState) ? s.videoState : 'none') as AdminSubmissionJson['videoState'],
    videoUrl: nul(s.videoUrl),
    posterUrl: nul(s.posterUrl),
    muxPlaybackId: nul(s.playbackId),
    videoRejectedReason: nul(s.videoRejectedReason),
    videoDuration: nul(s.videoDuration),
    clipperHandle: nul(s.clipperHandle),
    clipperDisplayName: nul(s.clipperDisplayName),
    guideChecks: toGuideChecksJson(s.guideChecks),
    matches: toVideoMatchesJson(s),
    risk: toViewRiskJson(s.risk),
    hold: toEarningHoldJson(s.hold),
  };
}

export function toPlaceholderJson(p: adminV1.PlaceholderStreamer): PlaceholderStreamerJson {
  return {
    id: p.id,
    displayName: p.displayName,
    twitterUsername: p.twitterUsername,
    profileImageUrl: nul(p.profileImageUrl),
    bannerImageUrl: nul(p.bannerImageUrl),
    streamerMultiplier: p.streamerMultiplier,
    claimCode: p.claimCode,
    claimedBy: nul(p.claimedBy),
    claimedAt: nul(p.claimedAt),
    claimedByDisplayName: nul(p.claimedByDisplayName),
    claimedByHandle: nul(p.claimedByHandle),
    createdAt: p.createdAt,
  };
}

export function toApplicationJson(a: adminV1.ClipperApplication): ClipperApplicationJson {
  return {
    id: a.id,
    fullName: a.fullName,
    email: a.email,
    socialMediaHandles: nul(a.socialMediaHandles),
    availabilityHours: nul(a.availabilityHours),
    experience: a.experience,
    whyJoin: a.whyJoin,
    portfolioLinks: nul(a.portfolioLinks),
    status: a.status as ClipperApplicationJson['status'],
    notes: nul(a.notes),
    reviewedBy: nul(a.reviewedBy),
    reviewedAt: nul(a.reviewedAt),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function toAuditPageJson(page: adminV1.AuditPage): AuditPageJson {
  return {
    entries: (page.entries ?? []).map((e) => ({
      id: e.id,
      action: e.action,
      target: nul(e.target),
      result: e.result as 'ok' | 'refused' | 'failed',
      detail: nul(e.detail),
      actor: nul(e.actor),
      clientIp: nul(e.clientIp),
      correlationId: nul(e.correlationId),
      createdAt: e.createdAt,
    })),
    nextCursor: nul(page.nextCursor),
  };
}

/** deliveredViews / targetViews × 100 with one decimal (0 for a campaign without a target). */
export function progressPercent(delivered: number, target: number): number {
  if (!(target > 0)) return 0;
  return Math.round((delivered / target) * 1000) / 10;
}

export function toAdminCampaignJson(c: adminV1.AdminCampaign): AdminCampaignJson {
  const targetViews = Number(c.targetViews);
  const deliveredViews = Number(c.deliveredViews);
  return {
    id: c.id,
    streamerId: c.streamerId,
    streamerDisplayName: c.streamerDisplayName || null,
    streamerHandle: c.streamerHandle || null,
    title: c.title,
    description: c.description,
    targetViews,
    budgetAmount: Number(c.budgetAmount),
    contentLink: nul(c.contentLink),
    status: adminCampaignStatusSchema.catch('pending').parse(c.status),
    deliveredViews,
    progressPercent: progressPercent(deliveredViews, targetViews),
    rejectedReason: nul(c.rejectedReason),
    reviewedBy: nul(c.reviewedBy),
    reviewedAt: nul(c.reviewedAt),
    approvedAt: nul(c.approvedAt),
    completedAt: nul(c.completedAt),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

// System metrics (spec 02 §3 system_metrics, ADR 0039): the admin service's samples of the platform's health.
const metricStatusSchema = z.enum(['ok', 'warning', 'critical']);

export const systemMetricSchema = z
  .object({
    id: z.string(),
    metricType: z.enum(['readiness', 'queue_depth', 'dead_letters', 'consumer_lag']),
    metricName: z.string().describe('The service, queue, stream or consumer measured'),
    value: z
      .number()
      .nullable()
      .describe('Null when it could not be measured (metadata.error says why); readiness is 1, 0.5 degraded or 0'),
    unit: z.string(),
    status: metricStatusSchema.describe('Against its threshold: ok, warning or critical'),
    threshold: z
      .number()
      .nullable()
      .describe('The level it should stay on the good side of (metadata.critical is where it turns critical)'),
    metadata: z.record(z.string(), z.unknown()).describe('What else was read: counts by state, health checks, the error'),
    createdAt: z.string(),
    series: z
      .array(z.object({ at: z.string(), value: z.number().nullable() }))
      .describe("The last 24 hours in 15-minute buckets, oldest first: each bucket's worst value"),
  })
  .meta({ id: 'SystemMetric' });

export const systemMetricsSchema = z
  .object({
    sampledAt: z.string().nullable().describe('When the latest sample was taken; null before the first'),
    intervalMs: z.number().int().describe('How often samples are taken'),
    metrics: z.array(systemMetricSchema).describe('Every metric of the latest sample'),
  })
  .meta({ id: 'SystemMetrics' });
export type SystemMetricsJson = z.infer<typeof systemMetricsSchema>;

function metadataOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toSystemMetricsJson(m: adminV1.SystemMetrics): SystemMetricsJson {
  return {
    sampledAt: nul(m.sampledAt),
    intervalMs: m.intervalMs,
    metrics: (m.metrics ?? []).map((s) => ({
      id: s.id,
      metricType: systemMetricSchema.shape.metricType.catch('readiness').parse(s.metricType),
      metricName: s.metricName,
      value: nul(s.value),
      unit: s.unit,
      status: metricStatusSchema.catch('critical').parse(s.status),
      threshold: nul(s.threshold),
      metadata: metadataOf(s.metadataJson),
      createdAt: s.createdAt,
      series: (s.series ?? []).map((p) => ({ at: p.at, value: nul(p.value) })),
    })),
  };
}
