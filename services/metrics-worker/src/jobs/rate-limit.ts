import type { RateLimitHeaders, RateLimitPause } from '../ports.js';

export interface RateLimitPolicy {
  /** Added to X's reset (whole seconds, X's clock). */
  marginMs: number;
  /** A 429 without a usable reset: the first pause, doubling for each such 429 in a row… */
  backoffMinMs: number;
  /** …up to this. */
  backoffMaxMs: number;
}

/** Longest pause a reset header can ask for: a 15-minute window plus a minute; a reset further off is X's clock gone wrong. */
export const MAX_RESET_WAIT_MS = 16 * 60_000;

/** The pause after `inARow` 429s without a usable reset (1 for the first): min, 2·min, 4·min, … capped at max. */
export function backoffMs(inARow: number, minMs: number, maxMs: number): number {
  return Math.min(maxMs, minMs * 2 ** Math.min(Math.max(inARow - 1, 0), 30));
}

/**
 * Whether every worker must pause after this answer of X, and how long. The limit is X's per app token, so
 * one process's answer speaks for all of them:
 * - 429 with a reset in the future: until the reset (plus the margin);
 * - 429 without one (or with one already past): exponential backoff by the 429s in a row (`throttledInARow`, this one included);
 * - any other answer with `remaining` 0 and a reset in the future: until the reset. The answer itself is good and is used.
 */
export function pauseAfterAnswer(
  status: number,
  rate: RateLimitHeaders,
  nowMs: number,
  throttledInARow: number,
  policy: RateLimitPolicy,
): RateLimitPause | undefined {
  const untilReset = rate.resetAtSeconds !== undefined ? rate.resetAtSeconds * 1000 - nowMs : undefined;
  if (status === 429) {
    if (untilReset !== undefined && untilReset > 0)
      return { reason: 'too-many-requests', waitMs: Math.min(untilReset + policy.marginMs, MAX_RESET_WAIT_MS) };
    return {
      reason: 'too-many-requests-backoff',
      waitMs: backoffMs(Math.max(throttledInARow, 1), policy.backoffMinMs, policy.backoffMaxMs),
    };
  }
  if (rate.remaining === 0 && untilReset !== undefined && untilReset > 0)
    return { reason: 'window-used-up', waitMs: Math.min(untilReset + policy.marginMs, MAX_RESET_WAIT_MS) };
  return undefined;
}
