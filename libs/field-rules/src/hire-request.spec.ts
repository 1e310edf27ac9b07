import { describe, expect, it } from '@jest/globals';
import {
  checkHireRequest,
  firstHireError,
  HIRE_MESSAGES as M,
  HIRE_PACKAGES,
  HIRE_STATUSES,
  isHireStatus,
  packageFill,
} from './hire-request.js';

const valid = {
  clientName: ' Brand Team ',
  clientEmail: ' Team@Brand.IO ',
  projectDescription: 'Seven launch clips for our token week, cut from the stream.',
  contactInfo: ' @brandteam ',
};

const errorsOf = (input: Parameters<typeof checkHireRequest>[0]) => {
  const result = checkHireRequest(input);
  return result.ok ? {} : result.errors;
};

describe('checkHireRequest', () => {
  it('accepts the required fields with the defaults: medium urgency, email contact, no budget', () => {
    expect(checkHireRequest(valid)).toEqual({
      ok: true,
      value: {
        clientName: 'Brand Team',
        clientEmail: 'team@brand.io',
        projectDescription: valid.projectDescription,
        budget: null,
        urgency: 'medium',
        preferredContact: 'email',
        contactInfo: '@brandteam',
      },
    });
  });

  it.each(['low', 'medium', 'high', 'urgent'])('takes urgency %s', (urgency) => {
    expect(checkHireRequest({ ...valid, urgency }).ok).toBe(true);
  });

  it.each(['email', 'telegram', 'twitter'])('takes contact method %s', (preferredContact) => {
    expect(checkHireRequest({ ...valid, preferredContact }).ok).toBe(true);
  });

  it('refuses each rule with the spec’s words', () => {
    expect(errorsOf({ ...valid, clientEmail: 'nope' }).clientEmail).toBe('Please enter a valid email address');
    expect(errorsOf({ ...valid, clientName: 'A' }).clientName).toBe('Name must be at least 2 characters');
    expect(errorsOf({ ...valid, clientName: 'n'.repeat(101) }).clientName).toBe('Name is too long');
    expect(errorsOf({ ...valid, projectDescription: 'short' }).projectDescription).toBe(
      'Please provide more details about your project (at least 20 characters)',
    );
    expect(errorsOf({ ...valid, projectDescription: 'p'.repeat(2001) }).projectDescription).toBe('Description is too long');
    expect(errorsOf({ ...valid, budget: 0 }).budget).toBe('Budget must be positive');
    expect(errorsOf({ ...valid, budget: '-5' }).budget).toBe('Budget must be positive');
    expect(errorsOf({ ...valid, budget: 'ten' }).budget).toBe('Budget must be positive');
    expect(errorsOf({ ...valid, budget: 1_000_001 }).budget).toBe(M.budgetTooHigh);
    expect(errorsOf({ ...valid, contactInfo: '  ' }).contactInfo).toBe('Contact information is required');
    expect(errorsOf({ ...valid, contactInfo: 'c'.repeat(201) }).contactInfo).toBe('Contact info is too long');
    expect(errorsOf({ ...valid, urgency: 'tomorrow' }).urgency).toBe(M.urgencyInvalid);
    expect(errorsOf({ ...valid, preferredContact: 'fax' }).preferredContact).toBe(M.preferredContactInvalid);
  });

  it('keeps a budget in dollars with cents, from a number or its text', () => {
    expect(checkHireRequest({ ...valid, budget: '40' })).toMatchObject({ ok: true, value: { budget: 40 } });
    expect(checkHireRequest({ ...valid, budget: 99.999 })).toMatchObject({ ok: true, value: { budget: 100 } });
  });

  it('firstHireError answers in field order', () => {
    expect(firstHireError(errorsOf({}))).toBe('Name must be at least 2 characters');
  });
});

describe('the packages', () => {
  it('are Speed Pack $40 / 7 clips / 24 hours, Growth Pack $100 / 20 clips / 3 days, Viral Marketing with no price', () => {
    expect(HIRE_PACKAGES.map((p) => [p.name, p.price, p.clips, p.delivery])).toEqual([
      ['Speed Pack', 40, 7, '24 hours'],
      ['Growth Pack', 100, 20, '3 days'],
      ['Viral Marketing', null, null, null],
    ]);
  });

  it('fill the budget and a description that passes the rules', () => {
    for (const pack of HIRE_PACKAGES) {
      const fill = packageFill(pack.id);
      expect(fill.budget).toBe(pack.price);
      expect(checkHireRequest({ ...valid, ...fill }).ok).toBe(true);
    }
    expect(packageFill('viral').projectDescription).toMatch(/book a call/);
  });
});

describe('hire statuses', () => {
  it('are pending, accepted, declined and completed, and nothing else is one', () => {
    expect(HIRE_STATUSES).toEqual(['pending', 'accepted', 'declined', 'completed']);
    for (const status of HIRE_STATUSES) expect(isHireStatus(status)).toBe(true);
    for (const other of ['approved', 'Pending', '', 'toString', undefined, 1]) expect(isHireStatus(other)).toBe(false);
  });
});
