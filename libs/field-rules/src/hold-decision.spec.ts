import { describe, expect, it } from '@jest/globals';
import { checkHoldDecisionReason, HOLD_DECISION_MESSAGES, HOLD_DECISION_REASON_MAX } from './hold-decision.js';

describe('checkHoldDecisionReason (releasing or voiding a held earning)', () => {
  it('keeps the reason trimmed', () => {
    expect(checkHoldDecisionReason('  checked the original: theirs  ')).toEqual({ reason: 'checked the original: theirs' });
  });

  it('refuses a blank reason', () => {
    expect(checkHoldDecisionReason('   ')).toEqual({ error: HOLD_DECISION_MESSAGES.required });
    expect(checkHoldDecisionReason(undefined)).toEqual({ error: HOLD_DECISION_MESSAGES.required });
  });

  it('refuses a reason over the limit, naming it, and takes one at it', () => {
    expect(checkHoldDecisionReason('x'.repeat(HOLD_DECISION_REASON_MAX + 1))).toEqual({ error: 'Reason must be at most 500 characters' });
    expect(checkHoldDecisionReason(` ${'x'.repeat(HOLD_DECISION_REASON_MAX)} `)).toEqual({ reason: 'x'.repeat(HOLD_DECISION_REASON_MAX) });
  });
});
