import { APPEAL_MESSAGES, checkAppealDecisionReason, checkAppealText, isAppealOutcome } from './appeal.js';

describe('appeal rules', () => {
  it('keeps the trimmed text, refuses a blank one and one over 1,000 characters naming the limit', () => {
    expect(checkAppealText('  it is my own clip  ')).toEqual({ text: 'it is my own clip' });
    expect(checkAppealText('   ')).toEqual({ error: APPEAL_MESSAGES.textRequired });
    expect(checkAppealText(undefined)).toEqual({ error: APPEAL_MESSAGES.textRequired });
    expect(checkAppealText('x'.repeat(1000))).toEqual({ text: 'x'.repeat(1000) });
    expect(checkAppealText('x'.repeat(1001))).toEqual({ error: 'An appeal must be at most 1,000 characters' });
    // Spaces around a text of 1,000 characters do not count against it.
    expect(checkAppealText(` ${'x'.repeat(1000)} `)).toEqual({ text: 'x'.repeat(1000) });
  });

  it('knows the two outcomes only', () => {
    expect(isAppealOutcome('upheld')).toBe(true);
    expect(isAppealOutcome('overturned')).toBe(true);
    expect(isAppealOutcome('pending')).toBe(false);
    expect(isAppealOutcome(undefined)).toBe(false);
  });

  it("requires the admin's reason, at most 500 characters", () => {
    expect(checkAppealDecisionReason(' fair ')).toEqual({ reason: 'fair' });
    expect(checkAppealDecisionReason('')).toEqual({ error: APPEAL_MESSAGES.reasonRequired });
    expect(checkAppealDecisionReason('x'.repeat(501))).toEqual({ error: APPEAL_MESSAGES.reasonTooLong });
  });
});
