import { CLIPPER_TIERS, type campaignsV1, type ClipperTier } from '@clipit/contracts';
import {
  checkHireRating,
  checkHireRequest,
  firstHireError,
  firstHireRatingError,
  HIRE_RATING_LIMITS,
  HIRE_STATUSES,
} from '@clipit/field-rules';
import { z } from 'zod';
import { checkedBy, strictBody } from '../http/fields.js';

// CPM campaigns, clipper profiles and hire requests (spec 02 §2.5, §2.7, §3, §5, §7; ADR 0027). The
// shapes the browser sends and reads; the rules and their words are @clipit/field-rules', checked here
// before a call and again by the campaigns service, which owns them.

const text = (field: string, max: number) => z.string({ error: `${field} must be text` }).max(max, `${field} is too long`);
/** A number input sends a number or its text. */
const numberish = (field: string) => z.union([z.number({ error: `${field} must be a number` }), text(field, 32)]);

export const submitCampaignBody = strictBody({
  title: text('Title', 10_000).nullish(),
  description: text('Description', 10_000).nullish(),
  targetViews: numberish('Target views').nullish(),
  budgetAmount: numberish('Budget').nullish(),
  contentLink: text('Content link', 10_000).nullish(),
});
export type SubmitCampaignBody = z.infer<typeof submitCampaignBody>;

export const campaignStatusSchema = z.enum(['pending', 'approved', 'rejected', 'completed']);

export const campaignSchema = z
  .object({
    id: z.string(),
    streamerId: z.string(),
    title: z.string(),
    description: z.string(),
    targetViews: z.number().int(),
    budgetAmount: z.number().describe('Dollars'),
    contentLink: z.string().nullable(),
    status: campaignStatusSchema,
    deliveredViews: z
      .number()
      .int()
      .describe('Views delivered so far (ADR 0027): the streamer’s approved clips since the campaign’s approval, capped at the target'),
    rejectedReason: z.string().nullable(),
    reviewedAt: z.string().nullable(),
    approvedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CpmCampaign' });
export type CampaignJson = z.infer<typeof campaignSchema>;

export const campaignSubmittedSchema = z
  .object({ campaign: campaignSchema, message: z.string().describe('What the cpm-campaigns tab shows: review within 24 hours') })
  .meta({ id: 'CampaignSubmitted' });
export type CampaignSubmittedJson = z.infer<typeof campaignSubmittedSchema>;

export const campaignsPageSchema = z
  .object({
    campaigns: z.array(campaignSchema).describe('Newest first'),
    nextCursor: z.string().nullable(),
    total: z.number().int(),
  })
  .meta({ id: 'CpmCampaignsPage' });
export type CampaignsPageJson = z.infer<typeof campaignsPageSchema>;

const optionalOf = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function toCampaignJson(c: campaignsV1.CpmCampaign): CampaignJson {
  return {
    id: c.id,
    streamerId: c.streamerId,
    title: c.title,
    description: c.description,
    targetViews: Number(c.targetViews),
    budgetAmount: Number(c.budgetAmount),
    contentLink: optionalOf(c.contentLink),
    status: campaignStatusSchema.catch('pending').parse(c.status),
    deliveredViews: Number(c.deliveredViews),
    rejectedReason: optionalOf(c.rejectedReason),
    reviewedAt: optionalOf(c.reviewedAt),
    approvedAt: optionalOf(c.approvedAt),
    completedAt: optionalOf(c.completedAt),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

// --- clipper profiles -------------------------------------------------------------------------------

export const hiringServiceSchema = z
  .object({
    id: z.string(),
    serviceName: z.string(),
    description: z.string().nullable(),
    basePrice: z.number().nullable().describe('Dollars; null when priced on a call'),
    deliveryTimeHours: z.number().int().nullable(),
    isActive: z.boolean(),
  })
  .meta({ id: 'HiringService' });

export const hiringProfileSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    displayName: z.string(),
    twitterUsername: z.string().nullable(),
    bio: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    portfolioUrls: z.array(z.string()),
    specialties: z.array(z.string()),
    yearsExperience: z.number().int().nullable(),
    hourlyRate: z.number().nullable(),
    isAvailable: z.enum(['true', 'false']),
    totalHires: z.number().int(),
    averageRating: z.number(),
    totalReviews: z.number().int(),
    socialLinks: z.array(z.string()),
    clipPoints: z.number().int(),
    clipperTier: z.enum(CLIPPER_TIERS),
    canBeHired: z.boolean().describe('Gold points tier and available: what shows the Hire Clipper button'),
    services: z.array(hiringServiceSchema),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'HiringProfile' });
export type HiringProfileJson = z.infer<typeof hiringProfileSchema>;

const money = (value: string | undefined): number | null => (value === undefined || value === '' ? null : Number(value));

export function toHiringProfileJson(p: campaignsV1.ClipperProfile): HiringProfileJson {
  return {
    id: p.id,
    userId: p.userId,
    displayName: p.displayName,
    twitterUsername: optionalOf(p.twitterUsername),
    bio: optionalOf(p.bio),
    profileImageUrl: optionalOf(p.profileImageUrl),
    portfolioUrls: p.portfolioUrls ?? [],
    specialties: p.specialties ?? [],
    yearsExperience: optionalOf(p.yearsExperience),
    hourlyRate: money(p.hourlyRate),
    isAvailable: p.isAvailable === 'false' ? 'false' : 'true',
    totalHires: p.totalHires,
    averageRating: Number(p.averageRating) || 0,
    totalReviews: p.totalReviews,
    socialLinks: p.socialLinks ?? [],
    clipPoints: Number(p.clipPoints),
    // The campaigns service's answers (its hire rule, ADR 0027), passed on.
    clipperTier: p.clipperTier as ClipperTier,
    canBeHired: p.canBeHired,
    services: (p.services ?? []).map((s) => ({
      id: s.id,
      serviceName: s.serviceName,
      description: optionalOf(s.description),
      basePrice: money(s.basePrice),
      deliveryTimeHours: optionalOf(s.deliveryTimeHours),
      isActive: s.isActive,
    })),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

const list = (field: string) =>
  z.array(text(field, 10_000), { error: `${field} must be a list of text` }).max(100, `Too many ${field.toLowerCase()}`);

export const updateClipperProfileBody = strictBody({
  bio: text('Bio', 10_000).nullish(),
  portfolioUrls: list('Portfolio links').optional(),
  specialties: list('Specialties').optional(),
  yearsExperience: z.number({ error: 'Years of experience must be a number' }).int('Years of experience must be a whole number').nullish(),
  hourlyRate: numberish('Hourly rate').nullish(),
  isAvailable: z.union([z.boolean(), z.enum(['true', 'false'])], { error: 'isAvailable must be true or false' }).optional(),
  socialLinks: list('Social links').optional(),
  services: z
    .array(
      strictBody({
        serviceName: text('Service name', 10_000),
        description: text('Service description', 10_000).nullish(),
        basePrice: numberish('Service price').nullish(),
        deliveryTimeHours: z
          .number({ error: 'Delivery time must be a number of hours' })
          .int('Delivery time must be a whole number of hours')
          .nullish(),
        isActive: z.boolean().optional(),
      }),
      { error: 'services must be a list' },
    )
    .max(100, 'Too many services')
    .optional(),
});
export type UpdateClipperProfileBody = z.infer<typeof updateClipperProfileBody>;

// --- hire requests ----------------------------------------------------------------------------------

const hireRequestShape = strictBody({
  clipperId: text('clipperId', 64).nullish().describe('The clipper’s id, as the path names it (spec 02 §7 sends it in both)'),
  clientName: text('Name', 10_000).nullish(),
  clientEmail: text('Email', 10_000).nullish(),
  projectDescription: text('Description', 10_000).nullish(),
  budget: numberish('Budget').nullish().describe('Dollars; null for Viral Marketing (a call is booked)'),
  urgency: text('Urgency', 32).nullish().describe('low, medium (default), high or urgent'),
  preferredContact: text('Preferred contact', 32).nullish().describe('email (default), telegram or twitter'),
  contactInfo: text('Contact info', 10_000).nullish(),
});
/** The hire dialog's request, its rules checked (the campaigns service checks them again). */
export const hireRequestBody = checkedBy(hireRequestShape, (b) => checkHireRequest({ ...b, budget: b.budget ?? null }), firstHireError);
export type HireRequestBody = z.output<typeof hireRequestBody>;

export const hireStatusSchema = z.enum(HIRE_STATUSES);

export const hireSchema = z
  .object({
    id: z.string(),
    clipperId: z.string(),
    clientUserId: z.string().nullable(),
    clientName: z.string(),
    clientEmail: z.string(),
    projectDescription: z.string(),
    budget: z.number().nullable(),
    urgency: z.enum(['low', 'medium', 'high', 'urgent']),
    preferredContact: z.enum(['email', 'telegram', 'twitter']),
    contactInfo: z.string(),
    status: hireStatusSchema,
    clipperNotes: z.string().nullable(),
    respondedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'HireRequest' });
export type HireJson = z.infer<typeof hireSchema>;

export const hireSentSchema = z
  .object({
    id: z.string(),
    status: z.literal('pending'),
    message: z.string().describe('What the hire dialog shows'),
    ratingToken: z
      .string()
      .describe('The secret the client rates the hire with once the clipper completes it (ADR 0040); shown only in this answer'),
    ratingUrl: z.string().describe('The page the client rates the hire on: /hires/{id}/rate#token=…'),
  })
  .meta({ id: 'HireRequestSent' });
export type HireSentJson = z.infer<typeof hireSentSchema>;

const hireRatingShape = strictBody({
  token: text('Token', 200).nullish().describe('The ratingToken the hire request’s answer carried'),
  rating: numberish('Rating').nullish().describe('Stars, a whole number from 1 to 5'),
  review: text('Review', 10_000).nullish().describe(`Optional, at most ${HIRE_RATING_LIMITS.reviewMax} characters`),
});
/** The rating page's body, its rules checked (the campaigns service checks them again); the token is kept as sent. */
export const hireRatingBody = checkedBy(
  hireRatingShape,
  (b) => {
    const checked = checkHireRating(b);
    return checked.ok ? { ok: true as const, value: { ...checked.value, token: b.token ?? '' } } : checked;
  },
  firstHireRatingError,
);
export type HireRatingBody = z.output<typeof hireRatingBody>;

export const hireRatedSchema = z
  .object({
    hireId: z.string(),
    clipperId: z.string(),
    rating: z.number().int(),
    review: z.string().nullable(),
    averageRating: z.number().describe('The clipper’s average over every rated hire, now including this one'),
    totalReviews: z.number().int().describe('How many hires of this clipper are rated'),
    message: z.string().describe('What the rating page shows'),
  })
  .meta({ id: 'HireRated' });
export type HireRatedJson = z.infer<typeof hireRatedSchema>;

export const hiresPageSchema = z
  .object({ hires: z.array(hireSchema).describe('Newest first'), nextCursor: z.string().nullable(), total: z.number().int() })
  .meta({ id: 'HireRequestsPage' });
export type HiresPageJson = z.infer<typeof hiresPageSchema>;

export const respondToHireBody = strictBody({
  clipperNotes: text('Notes', 1000).nullish(),
});
export type RespondToHireBody = z.infer<typeof respondToHireBody>;

export function toHireJson(h: campaignsV1.HireRequest): HireJson {
  return {
    id: h.id,
    clipperId: h.clipperId,
    clientUserId: optionalOf(h.clientUserId),
    clientName: h.clientName,
    clientEmail: h.clientEmail,
    projectDescription: h.projectDescription,
    budget: money(h.budget),
    urgency: z.enum(['low', 'medium', 'high', 'urgent']).catch('medium').parse(h.urgency),
    preferredContact: z.enum(['email', 'telegram', 'twitter']).catch('email').parse(h.preferredContact),
    contactInfo: h.contactInfo,
    status: hireStatusSchema.catch('pending').parse(h.status),
    clipperNotes: optionalOf(h.clipperNotes),
    respondedAt: optionalOf(h.respondedAt),
    completedAt: optionalOf(h.completedAt),
    createdAt: h.createdAt,
  };
}

const numberText = (value: number | string): string => (typeof value === 'number' ? String(value) : value);

/** The profile edit as the campaigns service takes it: present lists replace (`set*` says one was sent). */
export function toClipperProfileUpdate(userId: string, body: UpdateClipperProfileBody): campaignsV1.UpdateClipperProfileRequest {
  return {
    userId,
    ...(body.bio !== undefined ? { bio: body.bio ?? '' } : {}),
    setPortfolioUrls: body.portfolioUrls !== undefined,
    portfolioUrls: body.portfolioUrls ?? [],
    setSpecialties: body.specialties !== undefined,
    specialties: body.specialties ?? [],
    ...(body.yearsExperience !== undefined && body.yearsExperience !== null ? { yearsExperience: body.yearsExperience } : {}),
    ...(body.hourlyRate !== undefined && body.hourlyRate !== null ? { hourlyRate: numberText(body.hourlyRate) } : {}),
    ...(body.isAvailable !== undefined ? { isAvailable: String(body.isAvailable) } : {}),
    setSocialLinks: body.socialLinks !== undefined,
    socialLinks: body.socialLinks ?? [],
    setServices: body.services !== undefined,
    services: (body.services ?? []).map((s) => ({
      serviceName: s.serviceName,
      ...(s.description ? { description: s.description } : {}),
      ...(s.basePrice !== undefined && s.basePrice !== null ? { basePrice: numberText(s.basePrice) } : {}),
      ...(s.deliveryTimeHours !== undefined && s.deliveryTimeHours !== null ? { deliveryTimeHours: s.deliveryTimeHours } : {}),
      isActive: s.isActive ?? true,
    })),
  };
}
