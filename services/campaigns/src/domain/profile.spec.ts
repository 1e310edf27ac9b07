import { describe, expect, it } from '@jest/globals';
import { HIRE_PACKAGES } from '@clipit/field-rules';
import { defaultServices, displayNameOf, hoursOf, toProfileMessage, type ClipperProfile } from './profile.js';

const at = new Date('2026-11-26T10:00:00.000Z');

describe('clipper profile rules', () => {
  it('gives a gold clipper the three packages, Viral Marketing unpriced', () => {
    expect(defaultServices()).toEqual([
      { serviceName: 'Speed Pack', description: HIRE_PACKAGES[0].description, basePrice: 40, deliveryTimeHours: 24, isActive: true },
      { serviceName: 'Growth Pack', description: HIRE_PACKAGES[1].description, basePrice: 100, deliveryTimeHours: 72, isActive: true },
      {
        serviceName: 'Viral Marketing',
        description: HIRE_PACKAGES[2].description,
        basePrice: null,
        deliveryTimeHours: null,
        isActive: true,
      },
    ]);
    expect(hoursOf('2 days')).toBe(48);
    expect(hoursOf('soon')).toBeNull();
  });

  it('names the profile by display name, else handle', () => {
    expect(displayNameOf({ displayName: ' Cleo ', twitterUsername: 'cleo' })).toBe('Cleo');
    expect(displayNameOf({ displayName: null, twitterUsername: 'cleo' })).toBe('cleo');
    expect(displayNameOf({ displayName: '', twitterUsername: null })).toBe('Clipper');
  });

  it('answers money and the rating as text with two decimals', () => {
    const profile: ClipperProfile = {
      id: 'p',
      userId: 'u',
      displayName: 'Cleo',
      twitterUsername: null,
      bio: null,
      profileImageUrl: null,
      portfolioUrls: [],
      specialties: [],
      yearsExperience: null,
      hourlyRate: '25.5',
      isAvailable: 'true',
      totalHires: 0,
      averageRating: '0',
      totalReviews: 0,
      socialLinks: [],
      clipPoints: 0,
      clipperTier: 'bronze',
      lastClipPointsUpdate: null,
      lastApprovedClipDate: null,
      createdAt: at,
      updatedAt: at,
    };
    const message = toProfileMessage(profile, [
      { id: 's', serviceName: 'Call', description: null, basePrice: null, deliveryTimeHours: null, isActive: true },
    ]);
    expect(message).toMatchObject({
      hourlyRate: '25.50',
      averageRating: '0.00',
      bio: undefined,
      services: [{ id: 's', basePrice: undefined, isActive: true }],
      canBeHired: false,
    });
    expect(toProfileMessage({ ...profile, clipperTier: 'gold' }, []).canBeHired).toBe(true);
    expect(toProfileMessage({ ...profile, clipperTier: 'gold', isAvailable: 'false' }, []).canBeHired).toBe(false);
  });
});
