import { describe, expect, it } from '@jest/globals';
import { HIRE_MESSAGES } from '@clipit/field-rules';
import { answer, canBeHired, hireRefusal, newHire, serviceFor, toHireMessage } from './hire.js';
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
