// The weekly payout period (spec 02 §9: payments weekly on Fridays; ADR 0025).

const DAY_MS = 24 * 60 * 60 * 1000;
const FRIDAY = 5;

/** The payout period a run at `now` pays: it ends at the latest Friday 00:00 UTC not after `now`, and spans the 7 days before. */
export function payoutPeriod(now: Date): { periodStart: Date; periodEnd: Date } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysSinceFriday = (new Date(midnight).getUTCDay() - FRIDAY + 7) % 7;
  const periodEnd = new Date(midnight - daysSinceFriday * DAY_MS);
  return { periodStart: new Date(periodEnd.getTime() - 7 * DAY_MS), periodEnd };
}
