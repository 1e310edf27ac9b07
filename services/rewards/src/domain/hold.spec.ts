import { describe, expect, it } from '@jest/globals';
import { WALLET_CHANGE_HOLD_HOURS } from '@clipit/field-rules';
import { holdReason, holdUntil, humanDate } from './hold.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const hoursBefore = (hours: number) => new Date(NOW.getTime() - hours * 60 * 60 * 1000);

describe('the hold on payouts to a replaced wallet (ADR 0032)', () => {
  it('holds for 72 hours from the change', () => {
    expect(WALLET_CHANGE_HOLD_HOURS).toBe(72);
    expect(holdUntil(hoursBefore(10), NOW)).toEqual(new Date('2026-11-30T02:00:00Z'));
    expect(holdUntil(hoursBefore(71.99), NOW)).toBeDefined();
    // A change in the future (clocks apart) still holds, from that moment.
    expect(holdUntil(new Date('2026-11-27T13:00:00Z'), NOW)).toEqual(new Date('2026-11-30T13:00:00Z'));
  });

  it('holds nothing once the 72 hours are over (exactly 72 hours is paid), nor for a wallet never replaced', () => {
    expect(holdUntil(hoursBefore(72), NOW)).toBeUndefined();
    expect(holdUntil(hoursBefore(80), NOW)).toBeUndefined();
    expect(holdUntil(null, NOW)).toBeUndefined();
    expect(holdUntil(undefined, NOW)).toBeUndefined();
  });

  it('says why and until when, in words and UTC', () => {
    expect(humanDate(new Date('2026-11-05T09:07:00Z'))).toBe('5 November 2026 at 09:07 UTC');
    expect(holdReason(hoursBefore(10), holdUntil(hoursBefore(10), NOW)!)).toBe(
      'Your wallet address was changed on 27 November 2026 at 02:00 UTC: payouts to a new wallet wait 72 hours, so your pending earnings are paid from 30 November 2026 at 02:00 UTC.',
    );
  });
});
