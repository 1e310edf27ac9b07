import { z } from 'zod';

const at = z.iso.datetime({ offset: true });
/** $CLIP as a decimal string with up to 6 decimals. */
const amount = z.string().regex(/^\d+(\.\d{1,6})?$/);

/**
 * The points tiers (spec 02 §4), lowest first: the rewards service's names for them, as its events and
 * its answers carry them (rewards decides which one a clipper holds; ADR 0025).
 */
export const CLIPPER_TIERS = ['bronze', 'silver', 'gold'] as const;
export type ClipperTier = (typeof CLIPPER_TIERS)[number];
export const clipperTierSchema = z.enum(CLIPPER_TIERS);

/**
 * A clipper's standing changed: their clip points, their points tier (bronze, silver, gold) or their user
 * tier (1 Bronze to 4 Diamond). `revision` grows with each change of this clipper's standing, so a read
 * model (identity's users.currentTier, campaigns' gold check) applies an event only when its revision is
 * above the one it holds.
 */
export const rewardsStandingChangedV1 = z.object({
  userId: z.uuid(),
  clipPoints: z.number().int().nonnegative(),
  clipperTier: clipperTierSchema,
  currentTier: z.number().int().min(1).max(4),
  revision: z.number().int().positive(),
  at,
});
export type RewardsStandingChangedV1 = z.infer<typeof rewardsStandingChangedV1>;

/**
 * The streamer multiplier rewards applies to clips tagged with a streamer changed (ADR 0025's rule: the
 * admin-set one above 1.00, else the step of their follower count): published when a streamer is first
 * heard of, when their follower count crosses a step, when an admin changes their multiplier, and by the
 * daily recompute when the steps table changed. `revision` grows with each change of this streamer's
 * multiplier: a read model (feed's top streamers) applies an event only when its revision is above the
 * one it holds.
 */
export const rewardsStreamerMultiplierChangedV1 = z.object({
  userId: z.uuid(),
  /** 1.00 to 2.00, two decimals. */
  multiplier: z.number().min(1).max(2),
  followerCount: z.number().int().nonnegative(),
  revision: z.number().int().positive(),
  at,
});
export type RewardsStreamerMultiplierChangedV1 = z.infer<typeof rewardsStreamerMultiplierChangedV1>;

/** An approved clip earned `amount` (pending until the Friday payout). */
export const rewardsEarningCreatedV1 = z.object({
  earningId: z.uuid(),
  userId: z.uuid(),
  submissionId: z.uuid(),
  amount,
  at,
});
export type RewardsEarningCreatedV1 = z.infer<typeof rewardsEarningCreatedV1>;

/**
 * An earning is held (ADR 0050): its clip is flagged by the owner of submissions (a video match, views
 * under review), so no payout takes it until an admin releases or voids it. `reasons` are the words the
 * clipper is shown.
 */
export const rewardsEarningHeldV1 = z.object({
  earningId: z.uuid(),
  userId: z.uuid(),
  submissionId: z.uuid(),
  amount,
  reasons: z.array(z.string()).min(1),
  at,
});
export type RewardsEarningHeldV1 = z.infer<typeof rewardsEarningHeldV1>;

/** An admin's decision on a held earning: `by` is the admin token's actor, `reason` their words. */
const earningDecision = z.object({
  earningId: z.uuid(),
  userId: z.uuid(),
  submissionId: z.uuid(),
  amount,
  by: z.string().min(1),
  reason: z.string().min(1).max(500),
  at,
});

/** An admin released a held earning: pending again, paid by the next payout run. */
export const rewardsEarningReleasedV1 = earningDecision;
export type RewardsEarningReleasedV1 = z.infer<typeof rewardsEarningReleasedV1>;

/** An admin voided a held earning: never paid. */
export const rewardsEarningVoidedV1 = earningDecision;
export type RewardsEarningVoidedV1 = z.infer<typeof rewardsEarningVoidedV1>;

/** A weekly payout reached the clipper's wallet (`txHash` is the transaction's signature, or the ledger's reference). */
export const rewardsPayoutPaidV1 = z.object({
  payoutId: z.uuid(),
  userId: z.uuid(),
  walletAddress: z.string(),
  amount,
  txHash: z.string(),
  periodStart: at,
  periodEnd: at,
  at,
});
export type RewardsPayoutPaidV1 = z.infer<typeof rewardsPayoutPaidV1>;
