// A clipper's hiring profile (spec 02 §3 clipper_profiles and clipper_services, ADR 0027): what the owner
// edits in their dashboard (bio, portfolio, specialties, social links, experience, rate, availability and
// services). The dashboard checks it as the clipper types; the campaigns service checks it again before it
// stores anything. Only the fields sent are checked: an absent field is left as it is.
import { isHttpUrl } from './sign-in.js';

export const CLIPPER_PROFILE_LIMITS = {
  bio: { max: 1000 },
  /** Portfolio links, specialties and social links: at most this many items, each at most this long. */
  listItems: { max: 10 },
  listItem: { max: 300 },
  yearsExperience: { min: 0, max: 60 },
  /** Dollars per hour; the upper bound only keeps a typo out. */
  hourlyRate: { min: 0, max: 100_000 },
  services: { max: 10 },
  serviceName: { min: 1, max: 100 },
  serviceDescription: { max: 500 },
  /** Dollars; the same bound as a hire request's budget. */
  servicePrice: { min: 0, max: 1_000_000 },
  deliveryTimeHours: { min: 1, max: 720 },
} as const;

export const CLIPPER_PROFILE_MESSAGES = {
  bioLong: 'Bio must be at most 1000 characters',
  portfolioTooMany: 'Add at most 10 portfolio links',
  portfolioItemLong: 'Each portfolio link must be at most 300 characters',
  portfolioUrl: 'Each portfolio link must be a valid http(s) URL',
  specialtiesTooMany: 'Add at most 10 specialties',
  specialtyLong: 'Each specialty must be at most 300 characters',
  socialLinksTooMany: 'Add at most 10 social links',
  socialLinkLong: 'Each social link must be at most 300 characters',
  socialLinkUrl: 'Each social link must be a valid http(s) URL',
  yearsWhole: 'Years of experience must be a whole number',
  yearsRange: 'Years of experience must be between 0 and 60',
  hourlyRateInvalid: 'Hourly rate must be a number of dollars',
  hourlyRateNegative: 'Hourly rate cannot be negative',
  hourlyRateTooHigh: 'Hourly rate cannot exceed $100,000',
  isAvailableInvalid: "Availability must be 'true' or 'false'",
  servicesTooMany: 'Offer at most 10 services',
  serviceNameRequired: 'Each service needs a name',
  serviceNameLong: 'Service name must be at most 100 characters',
  serviceDescriptionLong: 'Service description must be at most 500 characters',
  servicePriceInvalid: 'Service price must be a number of dollars',
  servicePriceNegative: 'Service price cannot be negative',
  servicePriceTooHigh: 'Service price cannot exceed $1,000,000',
  deliveryTimeRange: 'Delivery time must be a whole number of hours from 1 to 720',
  /** GetClipperProfile / RequestHire for someone without a clipper profile. */
  notFound: 'Clipper not found',
} as const;

export const CLIPPER_PROFILE_FIELDS = [
  'bio',
  'portfolioUrls',
  'specialties',
  'yearsExperience',
  'hourlyRate',
  'isAvailable',
  'socialLinks',
  'services',
] as const;
export type ClipperProfileField = (typeof CLIPPER_PROFILE_FIELDS)[number];

/** One service as typed; prices and hours as numbers or the inputs' text. */
export interface ClipperServiceEdit {
  serviceName?: string | null | undefined;
  description?: string | null | undefined;
  basePrice?: number | string | null | undefined;
  deliveryTimeHours?: number | string | null | undefined;
  isActive?: boolean | null | undefined;
}

/** A profile edit: `undefined` leaves a field as it is; `null` or '' clears an optional one, `[]` a list. */
export interface ClipperProfileEdit {
  bio?: string | null | undefined;
  portfolioUrls?: readonly string[] | null | undefined;
  specialties?: readonly string[] | null | undefined;
  socialLinks?: readonly string[] | null | undefined;
  yearsExperience?: number | string | null | undefined;
  hourlyRate?: number | string | null | undefined;
  isAvailable?: boolean | string | null | undefined;
  services?: readonly ClipperServiceEdit[] | null | undefined;
}

export interface ClipperServiceDraft {
  serviceName: string;
  description: string | null;
  /** Dollars with cents, or null (priced on a call). */
  basePrice: number | null;
  deliveryTimeHours: number | null;
  isActive: boolean;
}

/** What passed, trimmed: only the fields the edit sent; empty list items are dropped. */
export interface ClipperProfileDraft {
  bio?: string | null;
  portfolioUrls?: string[];
  specialties?: string[];
  socialLinks?: string[];
  yearsExperience?: number | null;
  hourlyRate?: number | null;
  isAvailable?: 'true' | 'false';
  services?: ClipperServiceDraft[];
}

export type ClipperProfileCheck =
  { ok: true; value: ClipperProfileDraft } | { ok: false; errors: Partial<Record<ClipperProfileField, string>> };

const numberOf = (raw: number | string | null | undefined): number | undefined => {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'number') return raw;
  const text = raw.trim().replace(/,/g, '');
  if (text === '') return undefined;
  return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
};

const hasCents = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) <= 1e-6;

/** Dollars with cents within [min, max], or the message of the first rule it breaks. */
function dollarsOf(
  raw: number | string | null | undefined,
  bounds: { min: number; max: number },
  words: { invalid: string; negative: string; tooHigh: string },
): { value: number | null } | { error: string } {
  const n = numberOf(raw);
  if (n === undefined) return { value: null };
  if (!Number.isFinite(n) || !hasCents(n)) return { error: words.invalid };
  if (n < bounds.min) return { error: words.negative };
  if (n > bounds.max) return { error: words.tooHigh };
  return { value: Math.round(n * 100) / 100 };
}

/** A list's items trimmed, empty ones dropped, or the message of the first rule it breaks. */
function listOf(
  raw: readonly string[] | null,
  words: { tooMany: string; long: string; url?: string },
): { value: string[] } | { error: string } {
  const items = (raw ?? []).map((item) => (typeof item === 'string' ? item.trim() : '')).filter((item) => item !== '');
  if (items.length > CLIPPER_PROFILE_LIMITS.listItems.max) return { error: words.tooMany };
  if (items.some((item) => item.length > CLIPPER_PROFILE_LIMITS.listItem.max)) return { error: words.long };
  if (words.url && items.some((item) => !isHttpUrl(item))) return { error: words.url };
  return { value: items };
}

export const CLIPPER_SERVICE_FIELDS = ['serviceName', 'description', 'basePrice', 'deliveryTimeHours'] as const;
export type ClipperServiceField = (typeof CLIPPER_SERVICE_FIELDS)[number];

export type ClipperServiceCheck = { ok: true; value: ClipperServiceDraft } | { ok: false; field: ClipperServiceField; error: string };

/** One service's rules, stopping at the first it breaks and naming the field (a form shows it there). */
export function checkClipperService(input: ClipperServiceEdit): ClipperServiceCheck {
  const m = CLIPPER_PROFILE_MESSAGES;
  const l = CLIPPER_PROFILE_LIMITS;
  const refuse = (field: ClipperServiceField, error: string) => ({ ok: false, field, error }) as const;
  const serviceName = (input.serviceName ?? '').trim();
  if (serviceName.length < l.serviceName.min) return refuse('serviceName', m.serviceNameRequired);
  if (serviceName.length > l.serviceName.max) return refuse('serviceName', m.serviceNameLong);
  const description = (input.description ?? '').trim();
  if (description.length > l.serviceDescription.max) return refuse('description', m.serviceDescriptionLong);
  const price = dollarsOf(input.basePrice, l.servicePrice, {
    invalid: m.servicePriceInvalid,
    negative: m.servicePriceNegative,
    tooHigh: m.servicePriceTooHigh,
  });
  if ('error' in price) return refuse('basePrice', price.error);
  const hours = numberOf(input.deliveryTimeHours);
  if (hours !== undefined && (!Number.isInteger(hours) || hours < l.deliveryTimeHours.min || hours > l.deliveryTimeHours.max))
    return refuse('deliveryTimeHours', m.deliveryTimeRange);
  return {
    ok: true,
    value: {
      serviceName,
      description: description === '' ? null : description,
      basePrice: price.value,
      deliveryTimeHours: hours ?? null,
      isActive: input.isActive ?? true,
    },
  };
}

/** Every sent field's rule at once; `errors` holds the first failing rule per field. */
export function checkClipperProfile(input: ClipperProfileEdit): ClipperProfileCheck {
  const m = CLIPPER_PROFILE_MESSAGES;
  const l = CLIPPER_PROFILE_LIMITS;
  const errors: Partial<Record<ClipperProfileField, string>> = {};
  const value: ClipperProfileDraft = {};

  if (input.bio !== undefined) {
    const bio = (input.bio ?? '').trim();
    if (bio.length > l.bio.max) errors.bio = m.bioLong;
    else value.bio = bio === '' ? null : bio;
  }

  const lists = [
    ['portfolioUrls', { tooMany: m.portfolioTooMany, long: m.portfolioItemLong, url: m.portfolioUrl }],
    ['specialties', { tooMany: m.specialtiesTooMany, long: m.specialtyLong }],
    ['socialLinks', { tooMany: m.socialLinksTooMany, long: m.socialLinkLong, url: m.socialLinkUrl }],
  ] as const;
  for (const [field, words] of lists) {
    if (input[field] === undefined) continue;
    const list = listOf(input[field] ?? null, words);
    if ('error' in list) errors[field] = list.error;
    else value[field] = list.value;
  }

  if (input.yearsExperience !== undefined) {
    const years = numberOf(input.yearsExperience);
    if (years === undefined) value.yearsExperience = null;
    else if (!Number.isInteger(years)) errors.yearsExperience = m.yearsWhole;
    else if (years < l.yearsExperience.min || years > l.yearsExperience.max) errors.yearsExperience = m.yearsRange;
    else value.yearsExperience = years;
  }

  if (input.hourlyRate !== undefined) {
    const rate = dollarsOf(input.hourlyRate, l.hourlyRate, {
      invalid: m.hourlyRateInvalid,
      negative: m.hourlyRateNegative,
      tooHigh: m.hourlyRateTooHigh,
    });
    if ('error' in rate) errors.hourlyRate = rate.error;
    else value.hourlyRate = rate.value;
  }

  if (input.isAvailable !== undefined && input.isAvailable !== null) {
    const text = typeof input.isAvailable === 'boolean' ? String(input.isAvailable) : input.isAvailable.trim();
    if (text === 'true' || text === 'false') value.isAvailable = text;
    else errors.isAvailable = m.isAvailableInvalid;
  }

  if (input.services !== undefined) {
    const services = input.services ?? [];
    if (services.length > l.services.max) errors.services = m.servicesTooMany;
    else {
      const drafts: ClipperServiceDraft[] = [];
      for (const service of services) {
        const checked = checkClipperService(service);
        if (!checked.ok) {
          errors.services = checked.error;
          break;
        }
        drafts.push(checked.value);
      }
      if (!errors.services) value.services = drafts;
    }
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value };
}

/** The first message of a failed check, in field order. */
export function firstClipperProfileError(errors: Partial<Record<ClipperProfileField, string>>): string | undefined {
  for (const field of CLIPPER_PROFILE_FIELDS) if (errors[field]) return errors[field];
  return undefined;
}
