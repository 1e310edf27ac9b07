import { describe, expect, it } from '@jest/globals';
import { HOLD_REASONS, submissionHold } from './hold.js';

const risk = (underReview: boolean) => ({ score: underReview ? 80 : 20, reasons: ['Views jumped 40× in 2 hours.'], underReview });

describe('submissionHold (a flagged clip: ADR 0050)', () => {
  it('is null for a clip with no match and no risk under review', () => {
    expect(submissionHold(null, null)).toBeNull();
    expect(submissionHold([], risk(false))).toBeNull();
  });

  it('holds a re-upload of another clipper’s clip in words that do not name them', () => {
    expect(submissionHold([{ kind: 'reupload' }, { kind: 'reupload' }], null)).toEqual({
      causes: ['reupload'],
      reasons: [HOLD_REASONS.reupload],
    });
  });

  it('holds a duplicate of the clipper’s own clip', () => {
    expect(submissionHold([{ kind: 'duplicate' }], null)).toEqual({ causes: ['duplicate'], reasons: [HOLD_REASONS.duplicate] });
  });

  it('holds a clip whose views are under review with the risk’s reasons, beside its matches', () => {
    expect(submissionHold([{ kind: 'duplicate' }, { kind: 'reupload' }], risk(true))).toEqual({
      causes: ['reupload', 'duplicate', 'views'],
      reasons: [HOLD_REASONS.reupload, HOLD_REASONS.duplicate, 'Views jumped 40× in 2 hours.'],
    });
  });
});
