import { CLIPPER_TIERS, type ClipperTier, type identityV1, type rewardsV1 } from '@clipit/contracts';
import { z } from 'zod';

// Tiers, clip points, earnings and payouts (spec 02 §2.2, §3, §7, §9; ADR 0025). The rules are the
// rewards service's; these are the shapes the browser reads. $CLIP amounts are numbers with up to 6 decimals.

const amount = z.number().describe('$CLIP, up to 6 decimals');
const orNull = (v: string | null | undefined): string | null => (v === undefined || v === null ? null : v);

const tierRefSchema = z.object({ name: z.string(), ratePerClip: amount.describe('$CLIP per approved clip') }).meta({ id: 'TierRef' });

export const dashboardSchema = z
  .object({
    user: z.object({
      id: z.string(),
      displayName: z.string().nullable(),
      twitterUsername: z.string().nullable(),
      email: z.string().nullable(),
      profileImageUrl: z.string().nullable(),
      bannerImageUrl: z.string().nullable(),
      role: z.string(),
      currentTier: z.number().int().describe('1 Bronze, 2 Silver, 3 Gold, 4 Diamond (the rewards service’s standing)'),
      isLive: z.enum(['true', 'false']),
      nextStreamTime: z.string().nullable().describe('ISO 8601'),
    }),
    tierProgress: z.object({
      currentTier: tierRefSchema,
      nextTier: tierRefSchema.nullable().describe('null at the highest tier'),
      progressPercent: z
        .number()
        .int()
        .min(0)
        .max(100)
        .describe('The least-advanced requirement of the next tier, from the current tier’s threshold'),
      missingRequirements: z.array(z.string()),
      meetsNextTierRequirements: z.boolean(),
    }),
    metrics: z.object({
      totalApproved: z.number().int(),
      approvedInWindow: z.number().int().describe('Approved in the last `windowWeeks` weeks (4)'),
      approvalRate: z.number().describe('Percent, 0 to 100, one decimal: approved / (approved + rejected)'),
      avgViews: z.number().int().describe('Average views of approved clips'),
      approvedThisWeek: z.number().int().describe('Approved in the last 7 days'),
      windowWeeks: z.number().int(),
    }),
    earningsSummary: z.object({
      paid: amount,
      pending: amount.describe('To be paid by the next payouts; held earnings are not in it'),
      held: amount.describe('Earnings of flagged clips held until an admin releases or voids them (ADR 0050)'),
      total: amount.describe('Paid, pending and held (voided earnings are not counted)'),
    }),
    payoutHold: z
      .object({
        amount,
        reason: z.string().describe('The words to show: when the wallet was changed and from when the earnings are paid'),
        heldUntil: z.string().describe('ISO 8601: the wallet change plus 72 hours'),
        walletChangedAt: z.string().describe('ISO 8601'),
      })
      .nullable()
      .describe(
        'Pending earnings held because the payout wallet was replaced less than 72 hours ago (ADR 0032); null when nothing is held',
      ),
    recentSubmissions: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        platform: z.string(),
        url: z.string().nullable(),
        views: z.number().int(),
        createdAt: z.string().describe('ISO 8601'),
        status: z.enum(['pending', 'approved', 'rejected']),
        rejectedReason: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'Dashboard' });
export type DashboardJson = z.infer<typeof dashboardSchema>;

export const clipperStatsSchema = z
  .object({
    points: z.number().int(),
    tier: z.enum(CLIPPER_TIERS),
    rank: z.number().int().describe('1 is the most points; ties share the better rank'),
    totalClippers: z.number().int(),
    breakdown: z.object({
      approvedCount: z.number().int(),
      basePoints: z.number(),
      viewBonusPoints: z.number(),
      approvalRatio: z.number().describe('0 to 1'),
      inactivityPenalty: z.boolean().describe('Halved: no approved clip in the last 14 days'),
      finalPoints: z.number().int(),
    }),
    lockedFeatures: z
      .array(z.string())
      .describe("Spec 02 §6: what the points tier does not unlock yet (empty at gold: 'All Features Unlocked!')"),
    lastUpdated: z.string().nullable().describe('When the points were last computed (ISO 8601)'),
  })
  .meta({ id: 'ClipperStats' });
export type ClipperStatsJson = z.infer<typeof clipperStatsSchema>;

export const earningSchema = z
  .object({
    id: z.string(),
    submissionId: z.string(),
    submissionName: z.string().nullable(),
    amount,
    type: z.string().describe('post'),
    status: z
      .enum(['pending', 'held', 'voided', 'paid'])
      .describe('`held`: its clip is flagged and an admin decides (ADR 0050); `voided`: an admin decided it is never paid'),
    holdReasons: z.array(z.string()).describe('Why it is (or was) held, in words for the clipper; [] when never held'),
    decision: z
      .object({ decision: z.enum(['released', 'voided']), reason: z.string(), at: z.string() })
      .nullable()
      .describe("An admin's decision on its hold, with their reason; null when none"),
    periodStart: z.string().nullable(),
    periodEnd: z.string().nullable(),
    txHash: z.string().nullable().describe('The payout transaction’s signature once paid'),
    payoutId: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Earning' });
export const earningsPageSchema = z
  .object({
    earnings: z.array(earningSchema).describe('Newest first'),
    nextCursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last'),
  })
  .meta({ id: 'EarningsPage' });
export type EarningsPageJson = z.infer<typeof earningsPageSchema>;

export const payoutSchema = z
  .object({
    id: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    walletAddress: z.string(),
    amount,
    signature: z.string().describe('The transfer’s transaction signature (Solana), or the ledger’s record'),
    driver: z.string().describe('ledger or solana: how it was paid'),
    paidAt: z.string(),
    earningsCount: z.number().int(),
  })
  .meta({ id: 'Payout' });
export const payoutsPageSchema = z
  .object({
    payouts: z.array(payoutSchema).describe('Newest paid first'),
    nextCursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last'),
  })
  .meta({ id: 'PayoutsPage' });
export type PayoutsPageJson = z.infer<typeof payoutsPageSchema>;

export const tiersSchema = z
  .array(
    z.object({
      level: z.number().int(),
      name: z.string(),
      description: z.string(),
      ratePerPost: amount,
      minTotalApproved: z.number().int(),
      windowWeeks: z.number().int(),
      minApprovedInWindow: z.number().int(),
      minApprovalRate: z.number().describe('0 to 1'),
      minAvgViews: z.number().int(),
    }),
  )
  .meta({ id: 'Tiers' });
export type TiersJson = z.infer<typeof tiersSchema>;

export function toDashboardJson(user: identityV1.User, d: rewardsV1.Dashboard): DashboardJson {
  const progress = d.tierProgress!;
  const metrics = d.metrics!;
  const summary = d.earningsSummary!;
  return {
    user: {
      id: user.id,
      displayName: orNull(user.displayName),
      twitterUsername: orNull(user.twitterUsername),
      email: orNull(user.email),
      profileImageUrl: orNull(user.profileImageUrl),
      bannerImageUrl: orNull(user.bannerImageUrl),
      role: user.role,
      currentTier: d.currentTier,
      isLive: user.isLive === 'true' ? 'true' : 'false',
      nextStreamTime: orNull(user.nextStreamTime),
    },
    tierProgress: {
      currentTier: { name: progress.currentTier!.name, ratePerClip: Number(progress.currentTier!.ratePerClip) },
      nextTier: progress.nextTier ? { name: progress.nextTier.name, ratePerClip: Number(progress.nextTier.ratePerClip) } : null,
      progressPercent: progress.progressPercent,
      missingRequirements: progress.missingRequirements ?? [],
      meetsNextTierRequirements: progress.meetsNextTierRequirements,
    },
    metrics: {
      totalApproved: metrics.totalApproved,
      approvedInWindow: metrics.approvedInWindow,
      approvalRate: Math.round(metrics.approvalRate * 1000) / 10,
      avgViews: Math.round(metrics.avgViews),
      approvedThisWeek: metrics.approvedThisWeek,
      windowWeeks: metrics.windowWeeks,
    },
    earningsSummary: {
      paid: Number(summary.paid),
      pending: Number(summary.pending),
      held: Number(summary.held),
      total: Number(summary.total),
    },
    payoutHold: d.hold
      ? { amount: Number(d.hold.amount), reason: d.hold.reason, heldUntil: d.hold.heldUntil, walletChangedAt: d.hold.walletChangedAt }
      : null,
    recentSubmissions: (d.recentSubmissions ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      platform: s.platform,
      url: orNull(s.url),
      views: Math.round(s.views),
      createdAt: s.createdAt,
      status: s.status as 'pending' | 'approved' | 'rejected',
      rejectedReason: orNull(s.rejectedReason),
    })),
  };
}

export function toClipperStatsJson(s: rewardsV1.ClipperStats): ClipperStatsJson {
  const b = s.breakdown!;
  return {
    points: Math.round(s.points),
    // The rewards service's points tier and what it leaves locked, as it answers them (ADR 0025).
    tier: s.tier as ClipperTier,
    rank: s.rank,
    totalClippers: s.totalClippers,
    breakdown: {
      approvedCount: b.approvedCount,
      basePoints: b.basePoints,
      viewBonusPoints: b.viewBonusPoints,
      approvalRatio: b.approvalRatio,
      inactivityPenalty: b.inactivityPenalty,
      finalPoints: Math.round(b.finalPoints),
    },
    lockedFeatures: s.lockedFeatures ?? [],
    lastUpdated: orNull(s.lastUpdated),
  };
}

const EARNING_STATUSES = new Set(['pending', 'held', 'voided', 'paid']);

export function toEarningsPageJson(p: rewardsV1.EarningsPage): EarningsPageJson {
  return {
    earnings: (p.earnings ?? []).map((e) => ({
      id: e.id,
      submissionId: e.submissionId,
      submissionName: orNull(e.submissionName),
      amount: Number(e.amount),
      type: e.type,
      status: EARNING_STATUSES.has(e.status) ? (e.status as EarningsPageJson['earnings'][number]['status']) : 'pending',
      holdReasons: e.holdReasons ?? [],
      decision: e.decision
        ? { decision: e.decision.decision === 'voided' ? 'voided' : 'released', reason: e.decision.reason, at: e.decision.at }
        : null,
      periodStart: orNull(e.periodStart),
      periodEnd: orNull(e.periodEnd),
      txHash: orNull(e.txHash),
      payoutId: orNull(e.payoutId),
      createdAt: e.createdAt,
    })),
    nextCursor: orNull(p.nextCursor),
  };
}

export function toPayoutsPageJson(p: rewardsV1.PayoutsPage): PayoutsPageJson {
  return {
    payouts: (p.payouts ?? []).map((x) => ({
      id: x.id,
      periodStart: x.periodStart,
      periodEnd: x.periodEnd,
      walletAddress: x.walletAddress,
      amount: Number(x.amount),
      signature: x.txHash,
      driver: x.driver,
      paidAt: x.paidAt,
      earningsCount: x.earningsCount,
    })),
    nextCursor: orNull(p.nextCursor),
  };
}

export function toTiersJson(t: rewardsV1.Tiers): TiersJson {
  return (t.tiers ?? []).map((x) => ({ ...x, ratePerPost: Number(x.ratePerPost) }));
}
