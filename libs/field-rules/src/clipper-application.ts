// The clipper job application (spec 02 §5, "Clipper application"): the apply page checks it as a person
// types, the campaigns service checks it again before it stores anything. Messages are the spec's.
import { EMAIL_MESSAGES, isEmail } from './email.js';

export const CLIPPER_APPLICATION_LIMITS = {
  fullName: { min: 2, max: 100 },
  experience: { min: 20, max: 2000 },
  whyJoin: { min: 20, max: 2000 },
  socialMediaHandles: { max: 500 },
  portfolioLinks: { max: 1000 },
  availabilityHours: { min: 1, max: 168 },
} as const;

export const CLIPPER_APPLICATION_MESSAGES = {
  email: EMAIL_MESSAGES.invalid,
  fullNameShort: 'Full name must be at least 2 characters',
  fullNameLong: 'Full name is too long',
  experienceShort: 'Please provide more details about your experience (at least 20 characters)',
  experienceLong: 'Experience description is too long',
  whyJoinShort: 'Please tell us more about why you want to join (at least 20 characters)',
  whyJoinLong: 'Response is too long',
  socialMediaHandlesLong: 'Social media handles are too long',
  portfolioLinksLong: 'Portfolio links are too long',
  availabilityLow: 'Must be at least 1 hour',
  availabilityHigh: 'Cannot exceed 168 hours per week',
  availabilityWhole: 'Availability must be a whole number of hours',
  /** One pending application per address: a second one waits for the first to be reviewed. */
  alreadyPending: 'An application for this email is already pending review',
  /** What the apply page says once the application is stored. */
  received: "Thanks for applying! We'll review your application and get back to you by email.",
} as const;

export const CLIPPER_APPLICATION_FIELDS = [
  'fullName',
  'email',
  'socialMediaHandles',
  'availabilityHours',
  'experience',
  'whyJoin',
  'portfolioLinks',
] as const;
export type ClipperApplicationField = (typeof CLIPPER_APPLICATION_FIELDS)[number];

/** An application as typed: text fields as strings, the hours as a number or the input's text. */
export interface ClipperApplicationInput {
  fullName?: string | null | undefined;
  email?: string | null | undefined;
  socialMediaHandles?: string | null | undefined;
  availabilityHours?: number | string | null | undefined;
  experience?: string | null | undefined;
  whyJoin?: string | null | undefined;
  portfolioLinks?: string | null | undefined;
}

/** An application that passed: trimmed, the email lowercased, empty optional fields as null. */
export interface ClipperApplication {
  fullName: string;
  email: string;
  socialMediaHandles: string | null;
  availabilityHours: number | null;
  experience: string;
  whyJoin: string;
  portfolioLinks: string | null;
}

export type ClipperApplicationCheck =
  { ok: true; value: ClipperApplication } | { ok: false; errors: Partial<Record<ClipperApplicationField, string>> };

const trimmed = (v: string | null | undefined): string => (v ?? '').trim();
const optional = (v: string | null | undefined): string | null => trimmed(v) || null;

/**
 * Every field's rule at once, so a form can show each message beside its field; `errors` lists the
 * first failing rule per field, in the order of CLIPPER_APPLICATION_FIELDS.
 */
export function checkClipperApplication(input: ClipperApplicationInput): ClipperApplicationCheck {
  const m = CLIPPER_APPLICATION_MESSAGES;
  const l = CLIPPER_APPLICATION_LIMITS;
  const errors: Partial<Record<ClipperApplicationField, string>> = {};

  const fullName = trimmed(input.fullName);
  if (fullName.length < l.fullName.min) errors.fullName = m.fullNameShort;
  else if (fullName.length > l.fullName.max) errors.fullName = m.fullNameLong;

  const email = trimmed(input.email).toLowerCase();
  if (!isEmail(email)) errors.email = m.email;

  const socialMediaHandles = optional(input.socialMediaHandles);
  if (socialMediaHandles && socialMediaHandles.length > l.socialMediaHandles.max) errors.socialMediaHandles = m.socialMediaHandlesLong;

  let availabilityHours: number | null = null;
  const hours = typeof input.availabilityHours === 'string' ? input.availabilityHours.trim() : input.availabilityHours;
  if (hours !== null && hours !== undefined && hours !== '') {
    const n = typeof hours === 'number' ? hours : /^[+-]?\d+(\.\d+)?$/.test(hours) ? Number(hours) : Number.NaN;
    if (!Number.isFinite(n) || !Number.isInteger(n)) errors.availabilityHours = m.availabilityWhole;
    else if (n < l.availabilityHours.min) errors.availabilityHours = m.availabilityLow;
    else if (n > l.availabilityHours.max) errors.availabilityHours = m.availabilityHigh;
    else availabilityHours = n;
  }

  const experience = trimmed(input.experience);
  if (experience.length < l.experience.min) errors.experience = m.experienceShort;
  else if (experience.length > l.experience.max) errors.experience = m.experienceLong;

  const whyJoin = trimmed(input.whyJoin);
  if (whyJoin.length < l.whyJoin.min) errors.whyJoin = m.whyJoinShort;
  else if (whyJoin.length > l.whyJoin.max) errors.whyJoin = m.whyJoinLong;

  const portfolioLinks = optional(input.portfolioLinks);
  if (portfolioLinks && portfolioLinks.length > l.portfolioLinks.max) errors.portfolioLinks = m.portfolioLinksLong;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { fullName, email, socialMediaHandles, availabilityHours, experience, whyJoin, portfolioLinks } };
}

/** The first message of a failed check, in field order: what a server answers in one line. */
export function firstApplicationError(errors: Partial<Record<ClipperApplicationField, string>>): string | undefined {
  for (const field of CLIPPER_APPLICATION_FIELDS) if (errors[field]) return errors[field];
  return undefined;
}
