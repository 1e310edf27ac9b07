import { DomainError } from '@clipit/service-kit';
import { rejectedWith } from '@clipit/testing';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { newCampaign, type Campaign } from '../../src/domain/campaign.js';
import { newHire, type Hire } from '../../src/domain/hire.js';
import type { ClipperProfile } from '../../src/domain/profile.js';

// What the application services' unit specs share: ids, a stand-in transaction, rows built by the domain
// factories, and the refusal a call ended with.

export const STREAMER_ID = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';
export const CLIPPER_ID = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
export const CLIENT_ID = '5d1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b';
export const CAMPAIGN_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
export const HIRE_ID = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
export const AT = new Date('2026-11-28T10:00:00.000Z');
export const EARLIER = new Date('2026-11-20T10:00:00.000Z');

export const tx = { marker: 'the transaction' } as unknown as EntityManager;

/** A pending campaign of STREAMER_ID for 100,000 views, made by the domain factory, with `patch` over it. */
export function campaign(patch: Partial<Campaign> = {}): Campaign {
  const made = newCampaign(
    CAMPAIGN_ID,
    STREAMER_ID,
    {
      title: 'Launch week clips',
      description: 'Clips of the launch stream, posted on X during launch week.',
      targetViews: 100_000,
      budgetAmount: 500,
      contentLink: null,
    },
    EARLIER,
  );
  return { ...made, ...patch };
}

/** A pending hire of CLIPPER_ID by CLIENT_ID, made by the domain factory, with `patch` over it. */
export function hire(patch: Partial<Hire> = {}): Hire {
  const made = newHire(
    HIRE_ID,
    CLIPPER_ID,
    CLIENT_ID,
    null,
    {
      clientName: 'Brand Team',
      clientEmail: 'team@brand.example.com',
      projectDescription: 'Seven launch clips for our token week, cut from the stream.',
      budget: null,
      urgency: 'medium',
      preferredContact: 'email',
      contactInfo: '@brandteam',
    },
    EARLIER,
  );
  return { ...made, ...patch };
}

/** CLIPPER_ID's hiring profile at gold, available, with `patch` over it. */
export function profile(patch: Partial<ClipperProfile> = {}): ClipperProfile {
  return {
    id: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
    userId: CLIPPER_ID,
    displayName: 'Casey Clipper',
    twitterUsername: 'casey',
    bio: null,
    profileImageUrl: null,
    portfolioUrls: [],
    specialties: [],
    yearsExperience: null,
    hourlyRate: null,
    isAvailable: 'true',
    totalHires: 0,
    averageRating: '0',
    totalReviews: 0,
    socialLinks: [],
    clipPoints: 900,
    clipperTier: 'gold',
    lastClipPointsUpdate: null,
    lastApprovedClipDate: null,
    createdAt: EARLIER,
    updatedAt: EARLIER,
    ...patch,
  };
}

/** The gRPC code and words a call was refused with. */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = await rejectedWith(call, DomainError);
  return { code: err.code, message: err.message };
}

/** The error Postgres gives when `constraint`, a unique index, refuses a row. */
export function uniqueViolationOf(constraint: string): QueryFailedError {
  return new QueryFailedError('INSERT ...', [], Object.assign(new Error('duplicate key'), { code: '23505', constraint }));
}
