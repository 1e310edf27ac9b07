// The rewards rules of spec 02 §9 and ADR 0025, as pure functions over plain facts: tiers from their
// requirements (rows of the tiers table), clip points with the inactivity penalty, the streamer
// multiplier, an approved clip's earning, and the Tier Progress card.

/** A row of the tiers table (spec 02 §3), ordered by `level` (1 Bronze … 4 Diamond). */
export interface Tier {
  level: number;
  name: string;
  ratePerPost: number;
  minTotalApproved: number;
  windowWeeks: number;
  minApprovedInWindow: number;
  /** 0 to 1. */
  minApprovalRate: number;
  minAvgViews: number;
}

/** An approved clip as the rules see it. */
export interface ApprovedClip {
  approvedAt: Date;
  views: number;
  /** The tagged streamer's multiplier (1 when none), applied from the Silver points tier up. */
  streamerMultiplier: number;
}

/** What a clipper's tier and points are computed from. */
export interface ClipperFacts {
  approved: readonly ApprovedClip[];
  rejectedCount: number;
}

export interface ClipperMetrics {
  totalApproved: number;
  approvedInWindow: number;
  /** approved / (approved + rejected), 0 with neither; pending clips count for neither. */
  approvalRate: number;
  /** Average views over approved clips, 0 with none. */
  avgViews: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 02 §9: 10 base points per approved clip, the view bonus divides by 10, the penalty halves. */
export const BASE_POINTS_PER_CLIP = 10;
export const VIEWS_PER_BONUS_POINT = 10;
export const INACTIVITY_DAYS = 14;
export const INACTIVITY_FACTOR = 0.5;

export function metricsOf(facts: ClipperFacts, windowWeeks: number, now: Date): ClipperMetrics {
  const since = now.getTime() - windowWeeks * 7 * DAY_MS;
  const total = facts.approved.length;
  const views = facts.approved.reduce((sum, clip) => sum + clip.views, 0);
  const decided = total + facts.rejectedCount;
  return {
    totalApproved: total,
    approvedInWindow: facts.approved.filter((clip) => clip.approvedAt.getTime() >= since).length,
    approvalRate: decided === 0 ? 0 : total / decided,
    avgViews: total === 0 ? 0 : views / total,
  };
}

/** Whether `metrics` meet every requirement of `tier`. */
export function meets(metrics: ClipperMetrics, tier: Tier): boolean {
  return (
    metrics.totalApproved >= tier.minTotalApproved &&
    metrics.approvedInWindow >= tier.minApprovedInWindow &&
    metrics.approvalRate >= tier.minApprovalRate &&
    metrics.avgViews >= tier.minAvgViews
  );
}

/**
 * The highest tier whose every requirement is met, never below `current` (tiers only rise: ADR 0025) and
 * never below the lowest tier; `metricsFor` gives the metrics over a tier's own window.
 */
export function tierReached(tiers: readonly Tier[], metricsFor: (tier: Tier) => ClipperMetrics, current = 1): number {
  const ordered = [...tiers].sort((a, b) => a.level - b.level);
  let reached = Math.max(current, ordered[0]?.level ?? 1);
  for (const tier of ordered) if (tier.level > reached && meets(metricsFor(tier), tier)) reached = tier.level;
  return reached;
}

export interface PointsBreakdown {
  approvedCount: number;
  basePoints: number;
  viewBonusPoints: number;
  approvalRatio: number;
  inactivityPenalty: boolean;
  finalPoints: number;
}

/** The breakdown of a clipper with no approved clip: what clipPoints answers for them, and a standing not made yet shows. */
export const NO_POINTS: Readonly<PointsBreakdown> = {
  approvedCount: 0,
  basePoints: 0,
  viewBonusPoints: 0,
  approvalRatio: 0,
  inactivityPenalty: false,
  finalPoints: 0,
};

/**
 * Clip points (spec 02 §9): 10 × approved × approval ratio (each clip's 10 times its streamer's
 * multiplier when `multipliersApply`), plus total views / 10, halved when the clipper has approved clips
 * but none in the last 14 days; whole points, rounded down.
 */
export function clipPoints(facts: ClipperFacts, now: Date, multipliersApply: boolean): PointsBreakdown {
  const { approvalRate } = metricsOf(facts, 0, now);
  const basePoints = facts.approved.reduce(
    (sum, clip) => sum + BASE_POINTS_PER_CLIP * approvalRate * (multipliersApply ? clip.streamerMultiplier : 1),
    0,
  );
  const viewBonusPoints = facts.approved.reduce((sum, clip) => sum + clip.views, 0) / VIEWS_PER_BONUS_POINT;
  const cutoff = now.getTime() - INACTIVITY_DAYS * DAY_MS;
  const inactivityPenalty = facts.approved.length > 0 && !facts.approved.some((clip) => clip.approvedAt.getTime() >= cutoff);
  const finalPoints = Math.floor((basePoints + viewBonusPoints) * (inactivityPenalty ? INACTIVITY_FACTOR : 1));
  return { approvedCount: facts.approved.length, basePoints, viewBonusPoints, approvalRatio: approvalRate, inactivityPenalty, finalPoints };
}

/** A step of the follower-count multiplier table: from `minFollowers` on, `multiplier`. */
export interface MultiplierStep {
  minFollowers: number;
  multiplier: number;
}

/** ADR 0025's steps: 1.1 under 100 followers up to 2.0 from 10,000. */
export const DEFAULT_MULTIPLIER_STEPS: readonly MultiplierStep[] = [
  { minFollowers: 0, multiplier: 1.1 },
  { minFollowers: 100, multiplier: 1.25 },
  { minFollowers: 1000, multiplier: 1.5 },
  { minFollowers: 5000, multiplier: 1.75 },
  { minFollowers: 10000, multiplier: 2 },
];

/** A streamer's multiplier: the one an admin set when above 1.00, else by follower count; within 1.00 to 2.00. */
export function streamerMultiplier(
  setByAdmin: number,
  followers: number,
  steps: readonly MultiplierStep[] = DEFAULT_MULTIPLIER_STEPS,
): number {
  const byFollowers =
    [...steps]
      .sort((a, b) => a.minFollowers - b.minFollowers)
      .filter((s) => followers >= s.minFollowers)
      .at(-1)?.multiplier ?? 1;
  return Math.min(2, Math.max(1, setByAdmin > 1 ? setByAdmin : byFollowers));
}

/** An approved clip's earning: the tier's rate times the multiplier, to the token's 6 decimals. */
export function earningAmount(ratePerPost: number, multiplier: number): number {
  return Math.round(ratePerPost * multiplier * 1e6) / 1e6;
}

export interface TierProgress {
  currentTier: { name: string; ratePerClip: number };
  nextTier: { name: string; ratePerClip: number } | null;
  /** 0 to 100: the least-advanced requirement, from the current tier's threshold to the next one's. */
  progressPercent: number;
  missingRequirements: string[];
  meetsNextTierRequirements: boolean;
}

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const whole = (n: number) => Math.round(n).toLocaleString('en-US');

/** What the next tier still asks of `metrics`, in the dashboard's words. */
export function missingFor(metrics: ClipperMetrics, next: Tier): string[] {
  const missing: string[] = [];
  if (metrics.totalApproved < next.minTotalApproved)
    missing.push(`${whole(next.minTotalApproved - metrics.totalApproved)} more approved clips (${whole(next.minTotalApproved)} in total)`);
  if (metrics.approvedInWindow < next.minApprovedInWindow) {
    missing.push(
      `${whole(next.minApprovedInWindow - metrics.approvedInWindow)} more approved clips in the last ${next.windowWeeks} weeks (${whole(next.minApprovedInWindow)})`,
    );
  }
  if (metrics.approvalRate < next.minApprovalRate)
    missing.push(`An approval rate of ${percent(next.minApprovalRate)} (now ${percent(metrics.approvalRate)})`);
  if (metrics.avgViews < next.minAvgViews) missing.push(`Average views of ${whole(next.minAvgViews)} (now ${whole(metrics.avgViews)})`);
  return missing;
}

/** The Tier Progress card (spec 02 §3 Dashboard response `tierProgress`) for a clipper at `currentLevel`. */
export function tierProgress(tiers: readonly Tier[], currentLevel: number, metricsFor: (tier: Tier) => ClipperMetrics): TierProgress {
  const ordered = [...tiers].sort((a, b) => a.level - b.level);
  const current = ordered.find((t) => t.level === currentLevel) ?? ordered[0]!;
  const next = ordered.find((t) => t.level > current.level);
  const describe = (tier: Tier) => ({ name: tier.name, ratePerClip: tier.ratePerPost });
  if (!next)
    return {
      currentTier: describe(current),
      nextTier: null,
      progressPercent: 100,
      missingRequirements: [],
      meetsNextTierRequirements: false,
    };
  const metrics = metricsFor(next);
  const share = (value: number, from: number, to: number) =>
    to <= from ? (value >= to ? 1 : 0) : Math.min(1, Math.max(0, (value - from) / (to - from)));
  const shares = [
    share(metrics.totalApproved, current.minTotalApproved, next.minTotalApproved),
    share(metrics.approvedInWindow, current.minApprovedInWindow, next.minApprovedInWindow),
    share(metrics.approvalRate, current.minApprovalRate, next.minApprovalRate),
    share(metrics.avgViews, current.minAvgViews, next.minAvgViews),
  ];
  const missingRequirements = missingFor(metrics, next);
  return {
    currentTier: describe(current),
    nextTier: describe(next),
    progressPercent: Math.floor(Math.min(...shares) * 100),
    missingRequirements,
    meetsNextTierRequirements: missingRequirements.length === 0,
  };
}
