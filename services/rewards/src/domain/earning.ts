import { normalizeAmount } from './amount.js';
import { earningAmount, streamerMultiplier, type MultiplierStep, type Tier } from './rules.js';
import { multipliersApply } from './standing.js';

// The earning rule of ADR 0025 ("An earning per approved clip" and "As built"), as pure functions: the
// multiplier a clip captures when it is approved, and what the approved clip earns.

/** The tagged streamer as rewards' people model holds them. */
export interface TaggedStreamer {
  /** Set by an admin; 1 when not. */
  streamerMultiplier: number;
  followerCount: number;
}

/**
 * The streamer multiplier a clip captures at approval and keeps, for its points and its earning: 1 with
 * no tagged streamer; else the streamer's (the admin-set one above 1.00, otherwise by follower-count
 * step). A tagged streamer rewards has not heard of yet counts as one with no followers.
 */
export function multiplierAtApproval(
  streamerId: string | null | undefined,
  streamer: TaggedStreamer | undefined,
  steps: readonly MultiplierStep[],
): number {
  if (!streamerId) return 1;
  return streamer ? streamerMultiplier(streamer.streamerMultiplier, streamer.followerCount, steps) : streamerMultiplier(1, 0, steps);
}

/** One approved clip's earning, as stored and published (rewards.earning-created). */
export interface ClipEarning {
  tierLevel: number;
  /** The multiplier applied: the clip's from Silver up, 1 below. */
  multiplier: number;
  /** $CLIP as a decimal string, to the token's 6 decimals. */
  amount: string;
}

/**
 * What an approved clip earns: the rate per post of the tier the clipper holds once the clip is counted
 * (`heldTier`; the table's first row when that level is not in it), times the clip's multiplier when
 * multipliers apply to that tier (Silver and up).
 */
export function clipEarning(tiers: readonly Tier[], heldTier: number, clipMultiplier: number): ClipEarning {
  const tier = tiers.find((t) => t.level === heldTier) ?? tiers[0];
  if (!tier) throw new Error('no tiers: the tiers table is empty');
  const multiplier = multipliersApply(heldTier) ? clipMultiplier : 1;
  return { tierLevel: tier.level, multiplier, amount: normalizeAmount(earningAmount(tier.ratePerPost, multiplier)) };
}

/** What rewards last told of a streamer's applied multiplier, beside the inputs of the rule. */
export interface StreamerMultiplierState extends TaggedStreamer {
  role: string;
  /** As last published; null when never. */
  appliedMultiplier: number | null;
  revision: number;
}

/**
 * The multiplier to publish for a person (rewards.streamer-multiplier-changed), or undefined when there
 * is nothing new to tell: not a streamer, or the rule gives what was last published. The same rule a clip
 * captures at approval (`streamerMultiplier`), so what the public sees is what clips get.
 */
export function streamerMultiplierChange(
  person: StreamerMultiplierState,
  steps: readonly MultiplierStep[],
): { multiplier: number; revision: number } | undefined {
  if (person.role !== 'streamer') return undefined;
  const multiplier = streamerMultiplier(person.streamerMultiplier, person.followerCount, steps);
  if (person.appliedMultiplier !== null && Math.abs(person.appliedMultiplier - multiplier) < 0.005) return undefined;
  return { multiplier, revision: person.revision + 1 };
}
