// A request to hire a gold clipper (spec 02 §2.7, §5 "Hire request", §9 packages): the hire dialog checks
// it as the client types, the gateway and the campaigns service check it again before it is stored.
import { EMAIL_MESSAGES, isEmail } from './email.js';

export const HIRE_URGENCIES = ['low', 'medium', 'high', 'urgent'] as const;
export type HireUrgency = (typeof HIRE_URGENCIES)[number];
/** How each urgency reads in the dialog. */
export const HIRE_URGENCY_LABELS: Record<HireUrgency, string> = {
  low: 'Low (no rush)',
  medium: 'Medium (standard timeline)',
  high: 'High (ASAP)',
  urgent: 'Urgent (rush delivery)',
};
export const HIRE_CONTACT_METHODS = ['email', 'telegram', 'twitter'] as const;
export type HireContactMethod = (typeof HIRE_CONTACT_METHODS)[number];
export const HIRE_CONTACT_LABELS: Record<HireContactMethod, string> = { email: 'Email', telegram: 'Telegram', twitter: 'Twitter' };
export const HIRE_DEFAULTS = { urgency: 'medium', preferredContact: 'email' } as const satisfies {
  urgency: HireUrgency;
  preferredContact: HireContactMethod;
};

/**
 * A hire request's states (spec 02 §3 clipper_hires, ADR 0027): pending → accepted | declined; accepted →
 * completed. The one list: the event schema, the gateway's filter and answer, the campaigns service and the
 * database's check all name these.
 */
export const HIRE_STATUSES = ['pending', 'accepted', 'declined', 'completed'] as const;
export type HireStatus = (typeof HIRE_STATUSES)[number];

export function isHireStatus(value: unknown): value is HireStatus {
  return (HIRE_STATUSES as readonly unknown[]).includes(value);
}

/** The points tier a clipper must hold to be hired (spec 02 §6, §9: gold tier allows hiring). */
export const HIRE_REQUIRED_TIER = 'gold';

/** The three packages of spec 02 §2.7 and §9; choosing one fills the budget and the description. */
export const HIRE_PACKAGES = [
  {
    id: 'speed',
    name: 'Speed Pack',
    price: 40,
    clips: 7,
    delivery: '24 hours',
    description: 'Speed Pack: 7 clips delivered within 24 hours ($40).',
  },
  {
    id: 'growth',
    name: 'Growth Pack',
    price: 100,
    clips: 20,
    delivery: '3 days',
    description: 'Growth Pack: 20 clips delivered within 3 days ($100).',
  },
  {
    id: 'viral',
    name: 'Viral Marketing',
    price: null,
    clips: null,
    delivery: null,
    description: 'Viral Marketing: a custom campaign planned together. Please book a call to discuss scope and budget.',
  },
] as const;
export type HirePackageId = (typeof HIRE_PACKAGES)[number]['id'];
/** The package selection of spec 02 §4: none, or one of the three. */
export type HirePackageChoice = 'none' | HirePackageId;

export const HIRE_LIMITS = {
  clientName: { min: 2, max: 100 },
  projectDescription: { min: 20, max: 2000 },
  contactInfo: { min: 1, max: 200 },
  /** The largest budget one request names, in dollars. */
  budgetMax: 1_000_000,
} as const;

export const HIRE_MESSAGES = {
  clientEmail: EMAIL_MESSAGES.invalid,
  clientNameShort: 'Name must be at least 2 characters',
  clientNameLong: 'Name is too long',
  projectDescriptionShort: 'Please provide more details about your project (at least 20 characters)',
  projectDescriptionLong: 'Description is too long',
  budgetPositive: 'Budget must be positive',
  budgetTooHigh: 'Budget cannot exceed $1,000,000',
  contactInfoRequired: 'Contact information is required',
  contactInfoLong: 'Contact info is too long',
  urgencyInvalid: 'Urgency must be low, medium, high or urgent',
  preferredContactInvalid: 'Preferred contact must be email, telegram or twitter',
  /** The clipper is not at the gold points tier (403). */
  notGold: 'Only Gold tier clippers can be hired: this clipper has not reached Gold yet',
  /** A clipper asking to hire themselves (400). */
  self: 'You cannot hire yourself',
  /** The clipper says they take no work now (409). */
  unavailable: 'This clipper is not taking new work right now',
  /** What the client is told once it is stored. */
  sent: 'Hire request sent! The clipper will get back to you through your preferred contact method.',
  /** The dialog's fallback when the server says nothing (spec 02 §8). */
  failed: 'Failed to submit hire request. Please try again.',
} as const;

export const HIRE_FIELDS = [
  'clientName',
  'clientEmail',
  'projectDescription',
  'budget',
  'urgency',
  'preferredContact',
  'contactInfo',
] as const;
export type HireField = (typeof HIRE_FIELDS)[number];

export interface HireRequestInput {
  clientName?: string | null | undefined;
  clientEmail?: string | null | undefined;
  projectDescription?: string | null | undefined;
  budget?: number | string | null | undefined;
  urgency?: string | null | undefined;
  preferredContact?: string | null | undefined;
  contactInfo?: string | null | undefined;
}

export interface HireRequestDraft {
  clientName: string;
  clientEmail: string;
  projectDescription: string;
  /** Dollars with cents, or null (Viral Marketing: a call is booked instead). */
  budget: number | null;
  urgency: HireUrgency;
  preferredContact: HireContactMethod;
  contactInfo: string;
}

export type HireRequestCheck = { ok: true; value: HireRequestDraft } | { ok: false; errors: Partial<Record<HireField, string>> };

export function isHireUrgency(value: unknown): value is HireUrgency {
  return (HIRE_URGENCIES as readonly unknown[]).includes(value);
}
export function isHireContactMethod(value: unknown): value is HireContactMethod {
  return (HIRE_CONTACT_METHODS as readonly unknown[]).includes(value);
}

/** Every field's rule at once; empty urgency and contact method take their defaults, an empty budget is null. */
export function checkHireRequest(input: HireRequestInput): HireRequestCheck {
  const m = HIRE_MESSAGES;
  const l = HIRE_LIMITS;
  const errors: Partial<Record<HireField, string>> = {};

  const clientName = (input.clientName ?? '').trim();
  if (clientName.length < l.clientName.min) errors.clientName = m.clientNameShort;
  else if (clientName.length > l.clientName.max) errors.clientName = m.clientNameLong;

  const clientEmail = (input.clientEmail ?? '').trim().toLowerCase();
  if (!isEmail(clientEmail)) errors.clientEmail = m.clientEmail;

  const projectDescription = (input.projectDescription ?? '').trim();
  if (projectDescription.length < l.projectDescription.min) errors.projectDescription = m.projectDescriptionShort;
  else if (projectDescription.length > l.projectDescription.max) errors.projectDescription = m.projectDescriptionLong;

  let budget: number | null = null;
  const raw = typeof input.budget === 'string' ? input.budget.trim().replace(/,/g, '') : input.budget;
  if (raw !== null && raw !== undefined && raw !== '') {
    const n = typeof raw === 'number' ? raw : /^[+-]?\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(n) || n <= 0) errors.budget = m.budgetPositive;
    else if (n > l.budgetMax) errors.budget = m.budgetTooHigh;
    else budget = Math.round(n * 100) / 100;
  }

  const urgencyRaw = (input.urgency ?? '').trim();
  const urgency = urgencyRaw === '' ? HIRE_DEFAULTS.urgency : urgencyRaw;
  if (!isHireUrgency(urgency)) errors.urgency = m.urgencyInvalid;

  const contactRaw = (input.preferredContact ?? '').trim();
  const preferredContact = contactRaw === '' ? HIRE_DEFAULTS.preferredContact : contactRaw;
  if (!isHireContactMethod(preferredContact)) errors.preferredContact = m.preferredContactInvalid;

  const contactInfo = (input.contactInfo ?? '').trim();
  if (contactInfo.length < l.contactInfo.min) errors.contactInfo = m.contactInfoRequired;
  else if (contactInfo.length > l.contactInfo.max) errors.contactInfo = m.contactInfoLong;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      clientName,
      clientEmail,
      projectDescription,
      budget,
      urgency: urgency as HireUrgency,
      preferredContact: preferredContact as HireContactMethod,
      contactInfo,
    },
  };
}

/** The first message of a failed check, in field order. */
export function firstHireError(errors: Partial<Record<HireField, string>>): string | undefined {
  for (const field of HIRE_FIELDS) if (errors[field]) return errors[field];
  return undefined;
}

/** What choosing a package puts in the form: its price (null for Viral Marketing) and its description. */
export function packageFill(choice: HirePackageId): { budget: number | null; projectDescription: string } {
  const pack = HIRE_PACKAGES.find((p) => p.id === choice)!;
  return { budget: pack.price, projectDescription: pack.description };
}
