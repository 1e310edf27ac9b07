import { describe, expect, it } from '@jest/globals';
import { payoutPeriod } from './period.js';

describe('the payout period', () => {
  it('ends at the latest Friday 00:00 UTC not after the run, and spans the week before', () => {
    // Friday 27 November 2026, noon UTC: the scheduled run.
    expect(payoutPeriod(new Date('2026-11-27T12:00:00Z'))).toEqual({
      periodStart: new Date('2026-11-20T00:00:00Z'),
      periodEnd: new Date('2026-11-27T00:00:00Z'),
    });
    // Exactly at midnight it is that Friday's period; a moment before, the Friday before.
    expect(payoutPeriod(new Date('2026-11-27T00:00:00Z')).periodEnd).toEqual(new Date('2026-11-27T00:00:00Z'));
    expect(payoutPeriod(new Date('2026-11-26T23:59:59Z')).periodEnd).toEqual(new Date('2026-11-20T00:00:00Z'));
    // A run on Thursday (late, retried) still pays the week that ended the Friday before.
    expect(payoutPeriod(new Date('2026-12-03T09:00:00Z')).periodEnd).toEqual(new Date('2026-11-27T00:00:00Z'));
  });
});
