import { randomBytes } from 'node:crypto';

/** A new signing secret, as Standard Webhooks writes them: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * How long after failed attempt `attempt` (1 for the first) the next one is made: `base`, doubling each
 * time, at most `max` (30 s, 1 min, 2 min, … 6 h with the defaults: about 20 attempts in 3 days).
 */
export function retryDelayMs(attempt: number, base: number, max: number): number {
  return Math.min(base * 2 ** Math.min(Math.max(attempt - 1, 0), 40), max);
}

/** Why an endpoint was disabled, in words for its owner: how long it failed, and its last failure. */
export function disabledReason(failingSince: Date, last: { statusCode: number | null; error: string | null }): string {
  const failure = last.error ?? `it answered HTTP ${last.statusCode}`;
  return `Deliveries failed from ${failingSince.toISOString()} on; the last one: ${failure}`;
}
