import type { campaignsV1, ClipperProfileSnapshot, ClipperTier, UserSnapshot } from '@clipit/contracts';
import { HIRE_PACKAGES, type ClipperServiceDraft } from '@clipit/field-rules';
import { canBeHired } from './hire.js';
import { dollars } from './messages.js';

/** A clipper's hiring profile (spec 02 §3 clipper_profiles); money and rating as text with two decimals. */
export interface ClipperProfile {
  id: string;
  userId: string;
  displayName: string;
  twitterUsername: string | null;
  bio: string | null;
  profileImageUrl: string | null;
  portfolioUrls: string[];
  specialties: string[];
  yearsExperience: number | null;
  hourlyRate: string | null;
  isAvailable: 'true' | 'false';
  totalHires: number;
  averageRating: string;
  totalReviews: number;
  socialLinks: string[];
  clipPoints: number;
  clipperTier: ClipperTier;
  lastClipPointsUpdate: Date | null;
  lastApprovedClipDate: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One service a clipper offers (spec 02 §3 clipper_services); `basePrice` null means priced on a call. */
export interface ClipperServiceRow {
  id: string;
  serviceName: string;
  description: string | null;
  basePrice: string | null;
  deliveryTimeHours: number | null;
  isActive: boolean;
}

/** The name a profile shows: identity's display name, else the handle, else 'Clipper'. */
export function displayNameOf(user: Pick<UserSnapshot, 'displayName' | 'twitterUsername'>): string {
  return user.displayName?.trim() || user.twitterUsername?.trim() || 'Clipper';
}

/** '24 hours' → 24, '3 days' → 72; null for a package with no set delivery. */
export function hoursOf(delivery: string | null): number | null {
  if (delivery === null) return null;
  const match = /^(\d+)\s*(hour|day)s?$/.exec(delivery.trim());
  if (!match) return null;
  return Number(match[1]) * (match[2] === 'day' ? 24 : 1);
}

/** The three packages of spec 02 §2.7 and §9 as a gold clipper's first services (Viral Marketing unpriced). */
export function defaultServices(): ClipperServiceDraft[] {
  return HIRE_PACKAGES.map((pack) => ({
    serviceName: pack.name,
    description: pack.description,
    basePrice: pack.price,
    deliveryTimeHours: hoursOf(pack.delivery),
    isActive: true,
  }));
}

const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);
const opt = <T>(v: T | null): T | undefined => v ?? undefined;

export function toServiceMessage(s: ClipperServiceRow): campaignsV1.ClipperService {
  return {
    id: s.id,
    serviceName: s.serviceName,
    description: opt(s.description),
    basePrice: s.basePrice === null ? undefined : dollars(s.basePrice),
    deliveryTimeHours: opt(s.deliveryTimeHours),
    isActive: s.isActive,
  };
}

export function toProfileMessage(p: ClipperProfile, services: readonly ClipperServiceRow[]): campaignsV1.ClipperProfile {
  return {
    id: p.id,
    userId: p.userId,
    displayName: p.displayName,
    twitterUsername: opt(p.twitterUsername),
    bio: opt(p.bio),
    profileImageUrl: opt(p.profileImageUrl),
    portfolioUrls: p.portfolioUrls,
    specialties: p.specialties,
    yearsExperience: opt(p.yearsExperience),
    hourlyRate: p.hourlyRate === null ? undefined : dollars(p.hourlyRate),
    isAvailable: p.isAvailable,
    totalHires: p.totalHires,
    averageRating: dollars(p.averageRating),
    totalReviews: p.totalReviews,
    socialLinks: p.socialLinks,
    clipPoints: p.clipPoints,
    clipperTier: p.clipperTier,
    canBeHired: canBeHired(p),
    lastClipPointsUpdate: iso(p.lastClipPointsUpdate),
    lastApprovedClipDate: iso(p.lastApprovedClipDate),
    services: services.map(toServiceMessage),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** What clipper-profile.changed tells of a profile (the public clip cards' clipperProfile). */
export function toProfileSnapshot(p: ClipperProfile): ClipperProfileSnapshot {
  return {
    id: p.id,
    userId: p.userId,
    displayName: p.displayName,
    profileImageUrl: p.profileImageUrl,
    averageRating: Number(p.averageRating),
    totalReviews: p.totalReviews,
    totalHires: p.totalHires,
    isAvailable: p.isAvailable,
    updatedAt: p.updatedAt.toISOString(),
  };
}
