import type { campaignsV1, ClipperApplicationSnapshot } from '@clipit/contracts';
import type { ClipperApplicationEntity } from '../entities/clipper-application.entity.js';

const opt = <T>(v: T | null): T | undefined => v ?? undefined;

/** The gRPC shape: absent optional fields stay absent. */
export function toApplicationMessage(a: ClipperApplicationEntity): campaignsV1.ClipperApplication {
  return {
    id: a.id,
    fullName: a.fullName,
    email: a.email,
    socialMediaHandles: opt(a.socialMediaHandles),
    availabilityHours: opt(a.availabilityHours),
    experience: a.experience,
    whyJoin: a.whyJoin,
    portfolioLinks: opt(a.portfolioLinks),
    status: a.status,
    notes: opt(a.notes),
    reviewedBy: opt(a.reviewedBy),
    reviewedAt: a.reviewedAt ? a.reviewedAt.toISOString() : undefined,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** What application.submitted carries. */
export function toApplicationSnapshot(a: ClipperApplicationEntity): ClipperApplicationSnapshot {
  return {
    id: a.id,
    fullName: a.fullName,
    email: a.email,
    socialMediaHandles: a.socialMediaHandles,
    availabilityHours: a.availabilityHours,
    experience: a.experience,
    whyJoin: a.whyJoin,
    portfolioLinks: a.portfolioLinks,
    status: a.status,
    createdAt: a.createdAt.toISOString(),
  };
}
