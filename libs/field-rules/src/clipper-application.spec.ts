import { describe, expect, it } from '@jest/globals';
import { CLIPPER_APPLICATION_MESSAGES as M, checkClipperApplication, firstApplicationError } from './clipper-application.js';

const valid = {
  fullName: '  Ada Lovelace ',
  email: ' Ada@Example.COM ',
  experience: 'Two years cutting stream highlights for crypto channels.',
  whyJoin: 'I want to be paid for the clips I already make every week.',
};

function errorsOf(input: Parameters<typeof checkClipperApplication>[0]) {
  const result = checkClipperApplication(input);
  return result.ok ? {} : result.errors;
}

describe('checkClipperApplication', () => {
  it('accepts the required fields, trims them, lowercases the email and nulls empty optional ones', () => {
    const result = checkClipperApplication({ ...valid, socialMediaHandles: '  ', portfolioLinks: '', availabilityHours: '' });
    expect(result).toEqual({
      ok: true,
      value: {
        fullName: 'Ada Lovelace',
        email: 'ada@example.com',
        experience: valid.experience,
        whyJoin: valid.whyJoin,
        socialMediaHandles: null,
        portfolioLinks: null,
        availabilityHours: null,
      },
    });
  });

  it('keeps the optional fields when given, the hours from a number or its text', () => {
    const result = checkClipperApplication({
      ...valid,
      socialMediaHandles: '@ada on X',
      portfolioLinks: 'https://example.com/reel',
      availabilityHours: ' 20 ',
    });
    expect(result.ok && result.value).toMatchObject({
      socialMediaHandles: '@ada on X',
      portfolioLinks: 'https://example.com/reel',
      availabilityHours: 20,
    });
    const numeric = checkClipperApplication({ ...valid, availabilityHours: 168 });
    expect(numeric.ok && numeric.value.availabilityHours).toBe(168);
  });

  it.each([
    [{ fullName: 'A' }, 'fullName', M.fullNameShort],
    [{ fullName: 'x'.repeat(101) }, 'fullName', M.fullNameLong],
    [{ email: 'not-an-email' }, 'email', M.email],
    [{ experience: 'too short' }, 'experience', M.experienceShort],
    [{ experience: 'x'.repeat(2001) }, 'experience', M.experienceLong],
    [{ whyJoin: '   padded short    ' }, 'whyJoin', M.whyJoinShort],
    [{ whyJoin: 'x'.repeat(2001) }, 'whyJoin', M.whyJoinLong],
    [{ socialMediaHandles: 'x'.repeat(501) }, 'socialMediaHandles', M.socialMediaHandlesLong],
    [{ portfolioLinks: 'x'.repeat(1001) }, 'portfolioLinks', M.portfolioLinksLong],
    [{ availabilityHours: 0 }, 'availabilityHours', M.availabilityLow],
    [{ availabilityHours: '169' }, 'availabilityHours', M.availabilityHigh],
    [{ availabilityHours: 2.5 }, 'availabilityHours', M.availabilityWhole],
    [{ availabilityHours: '1e2' }, 'availabilityHours', M.availabilityWhole],
  ] as const)('refuses %j on %s with the spec message', (change, field, message) => {
    expect(errorsOf({ ...valid, ...change })).toEqual({ [field]: message });
  });

  it('accepts the bounds: 2 and 100 characters of name, 20 and 2000 of text, 500 and 1000 of the optional ones', () => {
    const result = checkClipperApplication({
      fullName: 'Al',
      email: 'a@b.co',
      experience: 'x'.repeat(20),
      whyJoin: 'y'.repeat(2000),
      socialMediaHandles: 'h'.repeat(500),
      portfolioLinks: 'p'.repeat(1000),
      availabilityHours: 1,
    });
    expect(result.ok).toBe(true);
    expect(checkClipperApplication({ ...valid, fullName: 'n'.repeat(100) }).ok).toBe(true);
  });

  it('reports every failing field at once, and the first one in form order for a one-line answer', () => {
    const errors = errorsOf({});
    expect(Object.keys(errors)).toEqual(['fullName', 'email', 'experience', 'whyJoin']);
    expect(firstApplicationError(errors)).toBe(M.fullNameShort);
    expect(firstApplicationError({})).toBeUndefined();
  });
});
