import { HIRE_STATUSES } from '@clipit/field-rules';
import { z } from 'zod';

const at = z.iso.datetime({ offset: true });
/** Dollars with two decimals, as text ("500.00"). */
const dollars = z.string().regex(/^\d+\.\d{2}$/);

/** A CPM campaign's state (spec 02 §3, ADR 0027): pending → approved | rejected; approved → completed. */
export const campaignStatusSchema = z.enum(['pending', 'approved', 'rejected', 'completed']);
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

/** A streamer's CPM campaign as the campaigns service publishes it. */
export const cpmCampaignSnapshotSchema = z.object({
  id: z.uuid(),
  streamerId: z.uuid(),
  title: z.string(),
  description: z.string(),
  targetViews: z.number().int().positive(),
  budgetAmount: dollars,
  contentLink: z.string().nullable(),
  status: campaignStatusSchema,
  deliveredViews: z.number().int().nonnegative(),
  rejectedReason: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: at.nullable(),
  approvedAt: at.nullable(),
  completedAt: at.nullable(),
  createdAt: at,
  updatedAt: at,
});
export type CpmCampaignSnapshot = z.infer<typeof cpmCampaignSnapshotSchema>;

/** A streamer submitted a CPM campaign (status pending): the admins' Campaigns tab lists it for review. */
export const campaignSubmittedV1 = z.object({ campaign: cpmCampaignSnapshotSchema });
export type CampaignSubmittedV1 = z.infer<typeof campaignSubmittedV1>;

/** An admin approved (it starts counting delivered views) or rejected (with `campaign.rejectedReason`) a pending campaign. */
export const campaignReviewedV1 = z.object({ campaign: cpmCampaignSnapshotSchema, decision: z.enum(['approved', 'rejected']) });
export type CampaignReviewedV1 = z.infer<typeof campaignReviewedV1>;

/** A running campaign's delivered views reached its target: it is completed. */
export const campaignCompletedV1 = z.object({ campaign: cpmCampaignSnapshotSchema });
export type CampaignCompletedV1 = z.infer<typeof campaignCompletedV1>;

/**
 * A running campaign's delivered views crossed another 10 % step of its target (issue 37): `percent` is
 * the highest step crossed (10 to 90; a jump from 5 % to 35 % tells 30 % only), told once per step and
 * campaign, even when views fall back and rise again. Reaching the target is campaign.completed instead.
 */
export const campaignProgressV1 = z.object({
  campaign: cpmCampaignSnapshotSchema,
  percent: z.number().int().min(10).max(90).multipleOf(10),
  deliveredViews: z.number().int().nonnegative(),
  targetViews: z.number().int().positive(),
});
export type CampaignProgressV1 = z.infer<typeof campaignProgressV1>;

/** A hire request's state: @clipit/field-rules' HIRE_STATUSES (pending → accepted | declined; accepted → completed). */
export const hireStatusSchema = z.enum(HIRE_STATUSES);
export type HireStatus = z.infer<typeof hireStatusSchema>;

/** A request to hire a gold clipper as the campaigns service publishes it; `clipperId` is the clipper's user id. */
export const hireRequestSnapshotSchema = z.object({
  id: z.uuid(),
  clientUserId: z.uuid().nullable(),
  clipperId: z.uuid(),
  serviceId: z.uuid().nullable(),
  clientName: z.string(),
  clientEmail: z.string(),
  projectDescription: z.string(),
  /** Dollars with two decimals, or null (Viral Marketing: a call is booked). */
  budget: dollars.nullable(),
  urgency: z.enum(['low', 'medium', 'high', 'urgent']),
  preferredContact: z.enum(['email', 'telegram', 'twitter']),
  contactInfo: z.string(),
  status: hireStatusSchema,
  clipperNotes: z.string().nullable(),
  respondedAt: at.nullable(),
  completedAt: at.nullable(),
  createdAt: at,
  updatedAt: at,
});
export type HireRequestSnapshot = z.infer<typeof hireRequestSnapshotSchema>;

/** Someone asked to hire a clipper (status pending): `clipperId` (their user id) is who to tell. */
export const hireRequestedV1 = z.object({ hire: hireRequestSnapshotSchema, clipperId: z.uuid() });
export type HireRequestedV1 = z.infer<typeof hireRequestedV1>;

/** The clipper answered a hire request: accepted or declined it (from pending), or completed it (from accepted). */
export const hireRespondedV1 = z.object({
  hire: hireRequestSnapshotSchema,
  clipperId: z.uuid(),
  action: hireStatusSchema.exclude(['pending']),
});
export type HireRespondedV1 = z.infer<typeof hireRespondedV1>;

/**
 * The client rated a completed hire, once (ADR 0040): the rating and review, and the clipper's profile
 * figures after it (the average over every rated hire, two decimals, and how many there are).
 */
export const hireRatedV1 = z.object({
  hireId: z.uuid(),
  clipperId: z.uuid(),
  rating: z.number().int().min(1).max(5),
  review: z.string().max(1000).nullable(),
  averageRating: z.number().min(0).max(5),
  totalReviews: z.number().int().nonnegative(),
  at,
});
export type HireRatedV1 = z.infer<typeof hireRatedV1>;

/**
 * A clipper's hiring profile as the public reads show it beside their clips (spec 01 §3 clipperProfile):
 * `id` is the profile's id, `userId` the clipper's user id.
 */
export const clipperProfileSnapshotSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  /** 0 to 5, two decimals; 0 without reviews. */
  averageRating: z.number().min(0).max(5),
  totalReviews: z.number().int().nonnegative(),
  totalHires: z.number().int().nonnegative(),
  isAvailable: z.enum(['true', 'false']),
  updatedAt: at,
});
export type ClipperProfileSnapshot = z.infer<typeof clipperProfileSnapshotSchema>;

/**
 * A clipper's hiring profile changed in any field the snapshot carries (made, renamed, new picture,
 * availability, a completed hire, a rating): the whole snapshot, so any change simply publishes it again.
 * `revision` grows with each change of this profile: a read model (feed's clip cards) applies an event
 * only when its revision is above the one it holds.
 */
export const clipperProfileChangedV1 = z.object({
  profile: clipperProfileSnapshotSchema,
  revision: z.number().int().positive(),
});
export type ClipperProfileChangedV1 = z.infer<typeof clipperProfileChangedV1>;
