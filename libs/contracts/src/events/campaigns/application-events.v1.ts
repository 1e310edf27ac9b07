import { z } from 'zod';

/** Review state of a clipper job application (spec 02 §3, §4): the interface offers no transition yet. */
export const applicationStatusSchema = z.enum(['pending', 'approved', 'rejected']);

/** A clipper job application as the campaigns service publishes it. */
export const clipperApplicationSnapshotSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  socialMediaHandles: z.string().nullable(),
  availabilityHours: z.number().int().nullable(),
  experience: z.string(),
  whyJoin: z.string(),
  portfolioLinks: z.string().nullable(),
  status: applicationStatusSchema,
  createdAt: z.iso.datetime({ offset: true }),
});

/** Someone applied to clip for CLIP IT (POST /api/clipper-applications): the admins' Job Applications tab lists it. */
export const applicationSubmittedV1 = z.object({ application: clipperApplicationSnapshotSchema });

export type ClipperApplicationSnapshot = z.infer<typeof clipperApplicationSnapshotSchema>;
export type ApplicationSubmittedV1 = z.infer<typeof applicationSubmittedV1>;
