import type { campaignsV1 } from '@clipit/contracts';
import { HIRE_MESSAGES, HIRE_RATING_MESSAGES } from '@clipit/field-rules';
import { describe, expect, it } from '@jest/globals';
import {
  campaignSchema,
  hireRatingBody,
  hireRequestBody,
  hireSchema,
  hiringProfileSchema,
  submitCampaignBody,
  toCampaignJson,
  toHireJson,
  toHiringProfileJson,
} from './campaigns.schemas.js';

const profile = {
  id: 'p1',
  userId: 'u1',
  displayName: 'Gail',
  portfolioUrls: [],
  specialties: ['crypto'],
  isAvailable: 'true',
  totalHires: 3,
  averageRating: '4.50',
  totalReviews: 2,
  socialLinks: [],
  clipPoints: 1520,
  clipperTier: 'gold',
  canBeHired: true,
  services: [
    { id: 's1', serviceName: 'Speed Pack', basePrice: '40.00', deliveryTimeHours: 24, isActive: true },
    { id: 's3', serviceName: 'Viral Marketing', isActive: true },
  ],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
} as unknown as campaignsV1.ClipperProfile;

describe('the campaign answer', () => {
  it('gives views and the budget as numbers and absent fields as null', () => {
    const json = toCampaignJson({
      id: 'c1',
      streamerId: 'st1',
      title: 'Launch week push',
      description: 'Clips of the launch stream, posted on X.',
      targetViews: 250_000,
      budgetAmount: '1250.00',
      status: 'approved',
      deliveredViews: 1200,
      approvedAt: '2026-11-03T00:00:00.000Z',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-03T00:00:00.000Z',
    } as unknown as campaignsV1.CpmCampaign);
    expect(campaignSchema.parse(json)).toEqual(json);
    expect(json).toMatchObject({
      targetViews: 250_000,
      budgetAmount: 1250,
      deliveredViews: 1200,
      contentLink: null,
      rejectedReason: null,
      completedAt: null,
      status: 'approved',
    });
  });
});

describe('the hiring profile answer', () => {
  it('passes on whether the clipper can be hired and their tier as campaigns answers them; prices as numbers, none as null', () => {
    const json = toHiringProfileJson(profile);
    expect(hiringProfileSchema.parse(json)).toEqual(json);
    expect(json).toMatchObject({ canBeHired: true, averageRating: 4.5, clipPoints: 1520, bio: null, hourlyRate: null });
    expect(json.services.map((s) => s.basePrice)).toEqual([40, null]);
    // The hire rule is the campaigns service's (ADR 0027): the gateway decides nothing of it.
    expect(toHiringProfileJson({ ...profile, canBeHired: false })).toMatchObject({ clipperTier: 'gold', canBeHired: false });
    expect(toHiringProfileJson({ ...profile, clipperTier: 'silver', canBeHired: true })).toMatchObject({
      clipperTier: 'silver',
      canBeHired: true,
    });
  });
});

describe('the hire request answer', () => {
  it('keeps a null budget (Viral Marketing) and the request’s choices', () => {
    const json = toHireJson({
      id: 'h1',
      clipperId: 'u1',
      clientName: 'Brand',
      clientEmail: 'team@brand.io',
      projectDescription: 'Seven launch clips for our token week.',
      urgency: 'urgent',
      preferredContact: 'telegram',
      contactInfo: '@brand',
      status: 'pending',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    } as unknown as campaignsV1.HireRequest);
    expect(hireSchema.parse(json)).toEqual(json);
    expect(json).toMatchObject({ budget: null, clientUserId: null, urgency: 'urgent', preferredContact: 'telegram' });
  });
});

describe('the bodies', () => {
  it('refuse unknown fields by name, and take numbers or their text', () => {
    expect(submitCampaignBody.safeParse({ title: 'x', discount: 1 }).error?.issues[0]?.message).toBe('Unknown field: discount');
    expect(submitCampaignBody.parse({ targetViews: '100,000', budgetAmount: 500 })).toMatchObject({
      targetViews: '100,000',
      budgetAmount: 500,
    });
    expect(hireRequestBody.safeParse({ package: 'speed' }).error?.issues[0]?.message).toBe('Unknown field: package');
    // The shared rules are part of the body's check (so a refused request is not counted against the hire limit).
    expect(hireRequestBody.safeParse({ budget: null }).error?.issues[0]?.message).toBe(HIRE_MESSAGES.clientNameShort);
    const valid = {
      clientName: 'Brand Team',
      clientEmail: 'team@brand.io',
      projectDescription: 'Seven clips of the launch stream, please.',
      budget: '40',
      contactInfo: '@brand',
    };
    expect(hireRequestBody.parse(valid)).toMatchObject({
      clientName: 'Brand Team',
      budget: 40,
      urgency: 'medium',
      preferredContact: 'email',
    });
  });
});

describe('the rating body (ADR 0040)', () => {
  it('takes the token as sent, whole stars 1 to 5 (a number or its text) and a trimmed review', () => {
    expect(hireRatingBody.parse({ token: 't', rating: '5', review: '  Great.  ' })).toEqual({ token: 't', rating: 5, review: 'Great.' });
    expect(hireRatingBody.parse({ token: 't', rating: 1 })).toEqual({ token: 't', rating: 1, review: null });
  });

  it.each([
    [{ token: 't', rating: 0 }, HIRE_RATING_MESSAGES.ratingRange],
    [{ token: 't', rating: 2.5 }, HIRE_RATING_MESSAGES.ratingRange],
    [{ token: 't' }, HIRE_RATING_MESSAGES.ratingRange],
    [{ token: 't', rating: 3, review: 'x'.repeat(1001) }, HIRE_RATING_MESSAGES.reviewTooLong],
    [{ token: 't', rating: 3, stars: 3 }, 'Unknown field: stars'],
    [{ token: 7, rating: 3 }, 'Token must be text'],
  ])('refuses %p with %p', (body, message) => {
    expect(hireRatingBody.safeParse(body).error?.issues[0]?.message).toBe(message);
  });
});
