import { describe, expect, it } from '@jest/globals';
import { holdFor, statusAfter, type HoldableEarning } from './earning-hold.js';

const reupload = { causes: ['reupload' as const], reasons: ['Its video matches a clip submitted earlier by another clipper.'] };
const views = { causes: ['views' as const], reasons: ['Views jumped 40× in 2 hours.'] };
const pending: HoldableEarning = { status: 'pending', payoutId: null, decidedCauses: null };

describe('holdFor (ADR 0050: what a flagged clip’s earning does)', () => {
  it('holds an earning created while its clip is flagged, and nothing for a clip not flagged', () => {
    expect(holdFor(undefined, reupload)).toEqual(reupload);
    expect(holdFor(undefined, null)).toBeUndefined();
    expect(holdFor(undefined, undefined)).toBeUndefined();
    expect(holdFor(pending, null)).toBeUndefined();
  });

  it('holds a pending earning not yet in a payout when a later snapshot flags it', () => {
    expect(holdFor(pending, views)).toEqual(views);
  });

  it('leaves an earning already in a payout, paid, voided or held as it is', () => {
    expect(holdFor({ ...pending, payoutId: 'p-1' }, views)).toBeUndefined();
    expect(holdFor({ ...pending, status: 'paid', payoutId: 'p-1' }, views)).toBeUndefined();
    expect(holdFor({ ...pending, status: 'voided' }, views)).toBeUndefined();
    expect(holdFor({ ...pending, status: 'held' }, views)).toBeUndefined();
  });

  it('does not hold again an earning an admin released on the same causes, but does on a new one', () => {
    const released: HoldableEarning = { ...pending, decidedCauses: ['reupload'] };
    expect(holdFor(released, reupload)).toBeUndefined();
    expect(holdFor(released, { causes: ['reupload', 'views'], reasons: [...reupload.reasons, ...views.reasons] })).toEqual({
      causes: ['reupload', 'views'],
      reasons: [...reupload.reasons, ...views.reasons],
    });
  });
});

describe('statusAfter', () => {
  it('sends a released earning back to pending and a voided one out of every payout', () => {
    expect(statusAfter('released')).toBe('pending');
    expect(statusAfter('voided')).toBe('voided');
  });
});
