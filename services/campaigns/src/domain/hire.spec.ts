import { describe, expect, it } from '@jest/globals';
import { HIRE_MESSAGES, HIRE_RATING_MESSAGES as R } from '@clipit/field-rules';
import { newSecretToken } from '@clipit/service-kit';
import { answer, canBeHired, hireRefusal, isRatingToken, newHire, rate, serviceFor, toHireMessage } from './hire.js';
import { MESSAGES } from './messages.js';

const CLIPPER = '2d9f6e30-8c9f-4e3b-9d7b-4b5c3f9e1c32';
const CLIENT = '0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10';
const at = new Date('2026-11-26T10:00:00.000Z');
const later = new Date('2026-11-27T10:00:00.000Z');
const draft = {
  clientName: 'Brand Team',
  clientEmail: 'team@brand.io',
  projectDescription: 'Speed Pack: 7 clips delivered within 24 hours ($40).',
  budget: 40,
  urgency: 'medium' as const,
  preferredContact: 'email' as const,
  contactInfo: '@brand',
};
const pending = newHire('5c0e8f7a-1b2c-4d3e-8f9a-0b1c2d3e4f5a', CLIPPER, CLIENT, null, draft, at);

describe('hire gate', () => {
  const gold = { userId: CLIPPER, clipperTier: 'gold', isAvailable: 'true' };
  it('lets anyone hire an available gold clipper', () => {
    expect(hireRefusal(gold, null)).toBeNull();
    expect(hireRefusal(gold, CLIENT)).toBeNull();
  });
  it('refuses below gold first, then oneself, then an unavailable clipper', () => {
    expect(hireRefusal({ ...gold, clipperTier: 'silver', isAvailable: 'false' }, CLIPPER)).toEqual({
      kind: 'forbidden',
      message: HIRE_MESSAGES.notGold,
    });
    expect(hireRefusal({ ...gold, isAvailable: 'false' }, CLIPPER)).toEqual({ kind: 'invalid', message: HIRE_MESSAGES.self });
    expect(hireRefusal({ ...gold, isAvailable: 'false' }, CLIENT)).toEqual({
      kind: 'failedPrecondition',
      message: HIRE_MESSAGES.unavailable,
    });
  });
  it('says whether a clipper can be hired: gold and available (what shows the Hire Clipper button)', () => {
    expect(canBeHired(gold)).toBe(true);
    expect(canBeHired({ clipperTier: 'silver', isAvailable: 'true' })).toBe(false);
    expect(canBeHired({ clipperTier: 'bronze', isAvailable: 'true' })).toBe(false);
    expect(canBeHired({ clipperTier: 'gold', isAvailable: 'false' })).toBe(false);
  });
});

describe('hire answers', () => {
  it('stores the budget as dollars with cents, none for a call', () => {
    expect(pending).toMatchObject({ status: 'pending', budget: '40.00' });
    expect(newHire(pending.id, CLIPPER, null, null, { ...draft, budget: null }, at).budget).toBeNull();
    expect(toHireMessage({ ...pending, budget: null }).budget).toBeUndefined();
  });

  it('accepts or declines a pending request, completes an accepted one', () => {
    const accepted = answer(pending, CLIPPER, 'accept', 'On it', later);
    expect(accepted).toEqual({ hire: expect.objectContaining({ status: 'accepted', clipperNotes: 'On it', respondedAt: later }) });
    expect(answer(pending, CLIPPER, 'decline', undefined, later)).toEqual({
      hire: expect.objectContaining({ status: 'declined', clipperNotes: null }),
    });
    const done = answer('hire' in accepted ? accepted.hire : pending, CLIPPER, 'complete', undefined, later);
    expect(done).toEqual({ hire: expect.objectContaining({ status: 'completed', completedAt: later, clipperNotes: 'On it' }) });
  });

  it('refuses someone else’s, a second answer, and completing one not accepted', () => {
    expect(answer(pending, CLIENT, 'accept', undefined, later)).toEqual({ refusal: { kind: 'forbidden', message: MESSAGES.notYourHire } });
    expect(answer(pending, CLIPPER, 'complete', undefined, later)).toEqual({
      refusal: { kind: 'failedPrecondition', message: MESSAGES.onlyAcceptedCompletes },
    });
    expect(answer({ ...pending, status: 'declined' }, CLIPPER, 'accept', undefined, later)).toEqual({
      refusal: { kind: 'failedPrecondition', message: MESSAGES.alreadyAnswered },
    });
    expect(answer({ ...pending, status: 'completed' }, CLIPPER, 'complete', undefined, later)).toEqual({
      refusal: { kind: 'failedPrecondition', message: MESSAGES.onlyAcceptedCompletes },
    });
  });

  it('links a package request to the clipper’s service of that name', () => {
    const services = [
      { id: 'a', serviceName: 'Speed Pack', isActive: true },
      { id: 'b', serviceName: 'Growth Pack', isActive: true },
      { id: 'c', serviceName: 'Viral Marketing', isActive: false },
    ];
    expect(serviceFor('Speed Pack: 7 clips delivered within 24 hours ($40).', services)).toBe('a');
    expect(serviceFor('growth pack: 20 clips', services)).toBe('b');
    expect(serviceFor('Viral Marketing: a custom campaign', services)).toBeNull();
    expect(serviceFor('Seven launch clips for our token week.', services)).toBeNull();
  });
});

describe('rating a hire (ADR 0040)', () => {
  const token = newSecretToken();
  const completed = { ...pending, ratingTokenHash: token.hash, status: 'completed' as const, completedAt: later };
  const stars = { rating: 4, review: 'Fast and sharp.' };

  it('makes a 256-bit token and keeps only its SHA-256', () => {
    expect(token.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(token.hash).not.toContain(token.token);
    expect(newSecretToken().token).not.toBe(token.token);
    expect(isRatingToken(completed, token.token)).toBe(true);
    expect(isRatingToken(completed, `${token.token}x`)).toBe(false);
    expect(isRatingToken({ ratingTokenHash: null }, token.token)).toBe(false);
  });

  it('rates a completed hire with its token, once', () => {
    const rated = rate(completed, token.token, stars, later);
    expect(rated).toEqual({ hire: { ...completed, clientRating: 4, clientReview: 'Fast and sharp.', ratedAt: later, updatedAt: later } });
    const again = rate('hire' in rated ? rated.hire : completed, token.token, { rating: 5, review: null }, later);
    expect(again).toEqual({ refusal: { kind: 'failedPrecondition', message: R.alreadyRated } });
  });

  it('refuses a wrong token before saying anything of the hire, then a hire not completed', () => {
    expect(rate(completed, newSecretToken().token, stars, later)).toEqual({ refusal: { kind: 'forbidden', message: R.wrongToken } });
    expect(rate({ ...completed, status: 'pending' }, 'nope', stars, later)).toEqual({
      refusal: { kind: 'forbidden', message: R.wrongToken },
    });
    expect(rate({ ...pending, ratingTokenHash: null, status: 'completed' }, token.token, stars, later)).toEqual({
      refusal: { kind: 'forbidden', message: R.wrongToken },
    });
    for (const status of ['pending', 'accepted', 'declined'] as const) {
      expect(rate({ ...completed, status }, token.token, stars, later)).toEqual({
        refusal: { kind: 'failedPrecondition', message: R.notCompleted },
      });
    }
  });
});
