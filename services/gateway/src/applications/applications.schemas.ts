import type { campaignsV1 } from '@clipit/contracts';
import { checkClipperApplication, firstApplicationError } from '@clipit/field-rules';
import { z } from 'zod';
import { checkedBy, strictBody } from '../http/fields.js';

// POST /api/clipper-applications (spec 02 §5 "Clipper application"). The shape is checked here; the rules
// and their words are @clipit/field-rules', checked by the gateway before it counts the attempt and again
// by the campaigns service, which owns the application.

const text = (field: string, max: number) => z.string({ error: `${field} must be text` }).max(max, `${field} is too long`);

const applicationShape = strictBody({
  fullName: text('Full name', 10_000).nullish(),
  email: text('Email', 10_000).nullish(),
  socialMediaHandles: text('Social media handles', 10_000).nullish(),
  // The form's number input may send a number or its text.
  availabilityHours: z.union([z.number({ error: 'Availability must be a number of hours' }), text('Availability', 32)]).nullish(),
  experience: text('Experience', 10_000).nullish(),
  whyJoin: text('Why join', 10_000).nullish(),
  portfolioLinks: text('Portfolio links', 10_000).nullish(),
});
export const submitApplicationBody = checkedBy(applicationShape, checkClipperApplication, firstApplicationError);
export type SubmitApplicationBody = z.output<typeof submitApplicationBody>;

export const applicationReceivedSchema = z
  .object({
    id: z.string(),
    status: z.literal('pending'),
    message: z.string().describe('What the apply page shows'),
  })
  .meta({ id: 'ApplicationReceived' });
export type ApplicationReceivedJson = z.infer<typeof applicationReceivedSchema>;

/** The checked application as the campaigns service takes it. */
export function toApplicationRequest(v: SubmitApplicationBody): campaignsV1.SubmitApplicationRequest {
  return {
    fullName: v.fullName,
    email: v.email,
    experience: v.experience,
    whyJoin: v.whyJoin,
    ...(v.socialMediaHandles !== null ? { socialMediaHandles: v.socialMediaHandles } : {}),
    ...(v.portfolioLinks !== null ? { portfolioLinks: v.portfolioLinks } : {}),
    ...(v.availabilityHours !== null ? { availabilityHours: String(v.availabilityHours) } : {}),
  };
}
