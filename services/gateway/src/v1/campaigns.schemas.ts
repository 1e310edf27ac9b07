import type { campaignsV1, submissionsV1 } from '@clipit/contracts';
import { z } from 'zod';
import { progressPercent } from '../admin/admin.schemas.js';
import { toV1ViewPoints, v1ViewPointSchema } from './submissions.schemas.js';
import { v1Page } from './v1-paging.js';

// A streamer's CPM campaigns and the clips they count, as the versioned read API answers them (ADR 0053):
// shapes of their own, stable within v1, independent of the site's.

const num = (v: number | string | undefined): number => Number(v ?? 0);
const orNull = <T>(v: T | undefined): T | null => (v === undefined || v === '' ? null : v);
const STATUSES = ['pending', 'approved', 'rejected', 'completed'] as const;

export const v1CampaignSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(STATUSES).meta({ description: '`approved`: running, its delivered views counting; `completed`: it reached its target' }),
    targetViews: z.number().int(),
    budgetAmount: z.string().meta({ description: 'Dollars, a decimal string with two decimals ("500.00")' }),
    deliveredViews: z.number().int().meta({
      description:
        'The views of the clips it counts: your approved clips approved from its approval on (until its completion), by clippers at the gold points tier; capped at the target',
    }),
    verifiedViews: z.number().int().meta({
      description:
        'Of the delivered views, those of clips not under review: neither their views under review nor flagged. Never above deliveredViews',
    }),
    progressPercent: z.number().meta({ description: 'deliveredViews / targetViews × 100, one decimal' }),
    approvedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'V1Campaign' });
export type V1Campaign = z.infer<typeof v1CampaignSchema>;
export const v1CampaignPageSchema = v1Page(v1CampaignSchema, 'V1CampaignPage');

export function toV1Campaign(c: campaignsV1.CpmCampaign): V1Campaign {
  const targetViews = num(c.targetViews);
  const deliveredViews = num(c.deliveredViews);
  return {
    id: c.id,
    title: c.title,
    status: z.enum(STATUSES).catch('pending').parse(c.status),
    targetViews,
    budgetAmount: c.budgetAmount,
    deliveredViews,
    verifiedViews: num(c.verifiedViews),
    progressPercent: progressPercent(deliveredViews, targetViews),
    approvedAt: orNull(c.approvedAt),
    completedAt: orNull(c.completedAt),
    createdAt: c.createdAt,
  };
}

export const v1CampaignClipSchema = z
  .object({
    submissionId: z.string(),
    clipperId: z.string().meta({ description: "The clipper's user id" }),
    postUrl: z.string().optional().meta({ description: 'The post on X; absent when not known yet' }),
    views: z.number().int().meta({ description: 'The views it delivers (0 until the post is verified as the clipper’s)' }),
    underReview: z.boolean().meta({ description: 'Its views are under review or it is flagged: not in verifiedViews' }),
    approvedAt: z.string(),
    viewHistory: z.array(v1ViewPointSchema).meta({ description: "The post's latest reads (at most 100), oldest first" }),
  })
  .meta({ id: 'V1CampaignClip' });
export type V1CampaignClip = z.infer<typeof v1CampaignClipSchema>;
export const v1CampaignClipPageSchema = v1Page(v1CampaignClipSchema, 'V1CampaignClipPage');

export function toV1CampaignClip(c: campaignsV1.CampaignClip, history: readonly submissionsV1.MetricsPoint[] | undefined): V1CampaignClip {
  return {
    submissionId: c.submissionId,
    clipperId: c.clipperId,
    ...(c.postUrl ? { postUrl: c.postUrl } : {}),
    views: num(c.views),
    underReview: c.underReview,
    approvedAt: c.approvedAt,
    viewHistory: toV1ViewPoints(history),
  };
}
