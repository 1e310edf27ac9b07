import { CLIPPER_TIERS, type ClipperTier } from '@clipit/contracts';
import { clipPoints, metricsOf, tierReached, type ClipperFacts, type PointsBreakdown, type Tier } from './rules.js';

export type { ClipperTier };

/** The points tier (spec 02 §4): the user tier's name, stopping at gold. */
export function clipperTierOf(currentTier: number): ClipperTier {
  return CLIPPER_TIERS[Math.min(Math.max(currentTier, 1), 3) - 1]!;
}

/** Multipliers apply from the Silver points tier up (spec 02 §6 tier benefits). */
export const multipliersApply = (currentTier: number): boolean => currentTier >= 2;

export interface ComputedStanding {
  clipPoints: number;
  clipperTier: ClipperTier;
  currentTier: number;
  breakdown: PointsBreakdown;
  lastApprovedClipDate: Date | null;
}

/**
 * A clipper's standing from their facts (ADR 0025): the tier first (the highest whose every requirement
 * is met, never below the one held), then the points, whose streamer multipliers depend on that tier.
 */
export function computeStanding(tiers: readonly Tier[], facts: ClipperFacts, heldTier: number, now: Date): ComputedStanding {
  const currentTier = tierReached(tiers, (tier) => metricsOf(facts, tier.windowWeeks, now), heldTier);
  const breakdown = clipPoints(facts, now, multipliersApply(currentTier));
  const last = facts.approved.reduce<number | null>(
    (max, clip) => (max === null || clip.approvedAt.getTime() > max ? clip.approvedAt.getTime() : max),
    null,
  );
  return {
    clipPoints: breakdown.finalPoints,
    clipperTier: clipperTierOf(currentTier),
    currentTier,
    breakdown,
    lastApprovedClipDate: last === null ? null : new Date(last),
  };
}

/** Whether a recompute changed what others are told of (rewards.standing-changed). */
export function standingChanged(
  before: { clipPoints: number; clipperTier: ClipperTier; currentTier: number } | undefined,
  after: ComputedStanding,
): boolean {
  return (
    !before ||
    before.clipPoints !== after.clipPoints ||
    before.clipperTier !== after.clipperTier ||
    before.currentTier !== after.currentTier
  );
}

/**
 * Spec 02 §6: what each points tier does not unlock yet, in the words of the points and tier card. 'Paid
 * Campaigns' is §6's "Gold unlocks paid campaigns", which the campaigns service enforces: only gold
 * clippers' clips deliver a CPM campaign's views (ADR 0041).
 */
const LOCKED_FEATURES: Record<ClipperTier, readonly string[]> = {
  bronze: ['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns'],
  silver: ['Hire Button Visibility', 'Paid Campaigns'],
  gold: [],
};

/** Spec 02 §6: the locked-features list of the points and tier card (empty at gold: 'All Features Unlocked!'). */
export function lockedFeatures(tier: ClipperTier): string[] {
  return [...LOCKED_FEATURES[tier]];
}
