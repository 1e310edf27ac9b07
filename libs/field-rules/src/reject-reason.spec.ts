import { describe, expect, it } from '@jest/globals';
import { checkRejectReason, REJECT_REASON_MESSAGES } from './reject-reason.js';

describe('checkRejectReason', () => {
  it('trims the reason and leaves out a blank one', () => {
    expect(checkRejectReason('  Not our brand  ')).toEqual({ reason: 'Not our brand' });
    expect(checkRejectReason('   ')).toEqual({});
    expect(checkRejectReason(undefined)).toEqual({});
  });

  it('takes 500 characters after trimming, and refuses 501', () => {
    expect(checkRejectReason(` ${'x'.repeat(500)} `)).toEqual({ reason: 'x'.repeat(500) });
    expect(checkRejectReason('x'.repeat(501))).toEqual({ error: REJECT_REASON_MESSAGES.tooLong });
    expect(REJECT_REASON_MESSAGES.tooLong).toBe('Rejection reason must be at most 500 characters');
  });
});
