import { describe, expect, it } from '@jest/globals';
import {
  checkClipperProfile,
  checkClipperService,
  CLIPPER_PROFILE_MESSAGES as M,
  firstClipperProfileError,
  type ClipperProfileEdit,
} from './clipper-profile.js';

const errorsOf = (input: ClipperProfileEdit) => {
  const result = checkClipperProfile(input);
  return result.ok ? {} : result.errors;
};
const firstOf = (input: ClipperProfileEdit) => firstClipperProfileError(errorsOf(input));

describe('checkClipperProfile', () => {
  it('checks only what was sent, and answers it trimmed', () => {
    expect(checkClipperProfile({})).toEqual({ ok: true, value: {} });
    expect(
      checkClipperProfile({
        bio: '  Cutting crypto streams daily.  ',
        portfolioUrls: [' https://x.com/me/status/1 ', ''],
        specialties: ['Memecoins', '  '],
        socialLinks: [],
        yearsExperience: '3',
        hourlyRate: '25.5',
        isAvailable: false,
        services: [
          { serviceName: ' Speed Pack ', basePrice: '40', deliveryTimeHours: 24 },
          { serviceName: 'Call', basePrice: '', description: ' ' },
        ],
      }),
    ).toEqual({
      ok: true,
      value: {
        bio: 'Cutting crypto streams daily.',
        portfolioUrls: ['https://x.com/me/status/1'],
        specialties: ['Memecoins'],
        socialLinks: [],
        yearsExperience: 3,
        hourlyRate: 25.5,
        isAvailable: 'false',
        services: [
          { serviceName: 'Speed Pack', description: null, basePrice: 40, deliveryTimeHours: 24, isActive: true },
          { serviceName: 'Call', description: null, basePrice: null, deliveryTimeHours: null, isActive: true },
        ],
      },
    });
  });

  it('clears optional fields sent empty', () => {
    expect(checkClipperProfile({ bio: '', yearsExperience: null, hourlyRate: '' })).toEqual({
      ok: true,
      value: { bio: null, yearsExperience: null, hourlyRate: null },
    });
  });

  it.each<[ClipperProfileEdit, string]>([
    [{ bio: 'x'.repeat(1001) }, M.bioLong],
    [{ portfolioUrls: Array.from({ length: 11 }, (_, i) => `https://a.io/${i}`) }, M.portfolioTooMany],
    [{ portfolioUrls: [`https://a.io/${'x'.repeat(300)}`] }, M.portfolioItemLong],
    [{ portfolioUrls: ['not a link'] }, M.portfolioUrl],
    [{ specialties: Array.from({ length: 11 }, (_, i) => `s${i}`) }, M.specialtiesTooMany],
    [{ specialties: ['x'.repeat(301)] }, M.specialtyLong],
    [{ socialLinks: ['javascript:alert(1)'] }, M.socialLinkUrl],
    [{ socialLinks: Array.from({ length: 11 }, (_, i) => `https://a.io/${i}`) }, M.socialLinksTooMany],
    [{ yearsExperience: 2.5 }, M.yearsWhole],
    [{ yearsExperience: 'ten' }, M.yearsWhole],
    [{ yearsExperience: 61 }, M.yearsRange],
    [{ yearsExperience: -1 }, M.yearsRange],
    [{ hourlyRate: -1 }, M.hourlyRateNegative],
    [{ hourlyRate: '1.005' }, M.hourlyRateInvalid],
    [{ hourlyRate: 'abc' }, M.hourlyRateInvalid],
    [{ hourlyRate: 100_001 }, M.hourlyRateTooHigh],
    [{ isAvailable: 'maybe' }, M.isAvailableInvalid],
    [{ services: Array.from({ length: 11 }, () => ({ serviceName: 'S' })) }, M.servicesTooMany],
    [{ services: [{ serviceName: '  ' }] }, M.serviceNameRequired],
    [{ services: [{ serviceName: 'x'.repeat(101) }] }, M.serviceNameLong],
    [{ services: [{ serviceName: 'S', description: 'x'.repeat(501) }] }, M.serviceDescriptionLong],
    [{ services: [{ serviceName: 'S', basePrice: -5 }] }, M.servicePriceNegative],
    [{ services: [{ serviceName: 'S', basePrice: 'free' }] }, M.servicePriceInvalid],
    [{ services: [{ serviceName: 'S', deliveryTimeHours: 0 }] }, M.deliveryTimeRange],
    [{ services: [{ serviceName: 'S', deliveryTimeHours: 721 }] }, M.deliveryTimeRange],
    [{ services: [{ serviceName: 'S', deliveryTimeHours: 1.5 }] }, M.deliveryTimeRange],
  ])('refuses %j with its message', (input, message) => {
    expect(firstOf(input)).toBe(message);
  });

  it('takes the limits themselves', () => {
    const result = checkClipperProfile({
      bio: 'x'.repeat(1000),
      specialties: Array.from({ length: 10 }, () => 'x'.repeat(300)),
      yearsExperience: 60,
      hourlyRate: 0,
      services: Array.from({ length: 10 }, () => ({ serviceName: 'x'.repeat(100), basePrice: 0, deliveryTimeHours: 720 })),
    });
    expect(result.ok).toBe(true);
  });

  it('names the first failing field in field order', () => {
    expect(firstOf({ services: [{ serviceName: '' }], bio: 'x'.repeat(1001), hourlyRate: -1 })).toBe(M.bioLong);
    expect(errorsOf({ services: [{ serviceName: '' }], hourlyRate: -1 })).toEqual({
      services: M.serviceNameRequired,
      hourlyRate: M.hourlyRateNegative,
    });
  });
});

describe('checkClipperService', () => {
  it('names the field of the first rule a service breaks, so a form shows it there', () => {
    expect(checkClipperService({ serviceName: ' ' })).toEqual({ ok: false, field: 'serviceName', error: M.serviceNameRequired });
    expect(checkClipperService({ serviceName: 'Pack', description: 'x'.repeat(501) })).toEqual({
      ok: false,
      field: 'description',
      error: M.serviceDescriptionLong,
    });
    expect(checkClipperService({ serviceName: 'Pack', basePrice: '40.005' })).toEqual({
      ok: false,
      field: 'basePrice',
      error: M.servicePriceInvalid,
    });
    expect(checkClipperService({ serviceName: 'Pack', deliveryTimeHours: '0' })).toEqual({
      ok: false,
      field: 'deliveryTimeHours',
      error: M.deliveryTimeRange,
    });
  });

  it('answers the service as stored: trimmed, empty description and price as null, offered by default', () => {
    expect(checkClipperService({ serviceName: ' Speed Pack ', description: ' ', basePrice: '40', deliveryTimeHours: '24' })).toEqual({
      ok: true,
      value: { serviceName: 'Speed Pack', description: null, basePrice: 40, deliveryTimeHours: 24, isActive: true },
    });
  });
});
