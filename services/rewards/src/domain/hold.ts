// Payouts to a replaced wallet wait (ADR 0032): earnings due to a wallet changed less than
// WALLET_CHANGE_HOLD_HOURS before a payout are held until that many hours have passed.
import { WALLET_CHANGE_HOLD_HOURS } from '@clipit/field-rules';

const HOLD_MS = WALLET_CHANGE_HOLD_HOURS * 60 * 60 * 1000;

/**
 * Until when payouts to a wallet changed at `walletChangedAt` wait, seen at `now`: 72 hours after the
 * change when that is still ahead of `now`; undefined when nothing is held (never changed, or the 72
 * hours are over: a change exactly 72 hours ago is paid).
 */
export function holdUntil(walletChangedAt: Date | null | undefined, now: Date): Date | undefined {
  if (!walletChangedAt) return undefined;
  const until = new Date(walletChangedAt.getTime() + HOLD_MS);
  return until.getTime() > now.getTime() ? until : undefined;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A moment as a person reads it, in UTC: "25 November 2026 at 14:03 UTC". */
export function humanDate(at: Date): string {
  const hh = String(at.getUTCHours()).padStart(2, '0');
  const mm = String(at.getUTCMinutes()).padStart(2, '0');
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} at ${hh}:${mm} UTC`;
}

/** What the clipper's dashboard says about a hold: why, and from when their earnings are paid. */
export function holdReason(walletChangedAt: Date, heldUntil: Date): string {
  return `Your wallet address was changed on ${humanDate(walletChangedAt)}: payouts to a new wallet wait ${WALLET_CHANGE_HOLD_HOURS} hours, so your pending earnings are paid from ${humanDate(heldUntil)}.`;
}
