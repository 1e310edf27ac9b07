// A streamer's CPM campaign (spec 02 §2.5, §5 "Campaign form" and "Campaign (shared definition)", §9):
// the cpm-campaigns tab checks it as the streamer types, the gateway and the campaigns service check it
// again before anything is stored. ADR 0027 settles the spec's conflict: the minimum is 100,000 views
// ($500 at $5 per 1,000 views, the minimum campaign §2.5 and §9 state) in the form and on the server
// alike, and the budget follows the views: it must be exactly the views' price.
import { isHttpUrl } from './sign-in.js';

/** $5 per 1,000 views. */
export const CPM_PRICE_USD = 5;
/** The minimum campaign: 100,000 views, which is $500. */
export const CAMPAIGN_MIN_VIEWS = 100_000;
export const CAMPAIGN_MIN_BUDGET_USD = 500;
/** The largest campaign one form takes: 100 million views ($500,000); a bigger one is a conversation. */
export const CAMPAIGN_MAX_VIEWS = 100_000_000;
/** What the team promises: a campaign is reviewed within this many hours. */
export const CAMPAIGN_REVIEW_HOURS = 24;
/** The audience the tab claims (spec 02 §2.5, §9). */
export const CAMPAIGN_AUDIENCE_CLAIM = '10,000+ crypto traders';

export const CAMPAIGN_LIMITS = {
  title: { min: 5, max: 100 },
  description: { min: 20, max: 2000 },
} as const;

export const CAMPAIGN_MESSAGES = {
  /** The form's words for an empty title; the shared definition's for a short or long one. */
  titleRequired: 'Campaign title is required',
  titleShort: 'Title must be at least 5 characters',
  titleLong: 'Title is too long',
  /** The form's words for a short description; the server says the shared definition's. */
  descriptionShortForm: 'Please provide a detailed description (at least 20 characters)',
  descriptionShort: 'Description must be at least 20 characters',
  descriptionLong: 'Description is too long',
  targetViewsMin: 'Minimum 100,000 views required (minimum $500 budget)',
  targetViewsWhole: 'Target views must be a whole number',
  targetViewsMax: 'Maximum 100,000,000 views per campaign',
  budgetMin: 'Minimum budget is $500',
  budgetInvalid: 'Budget must be a number of dollars',
  /** Filled with the views and the price they cost. */
  budgetMismatch: (views: number, price: number) =>
    `Budget must match the views at $5 per 1,000 views: ${formatUsd(price)} for ${views.toLocaleString('en-US')} views`,
  /** The form's words for a bad link; the server says the shared definition's. */
  contentLinkInvalidForm: 'Please provide a valid URL',
  contentLinkInvalid: 'Please enter a valid URL',
  /** POST /api/cpm-campaigns by anyone but a streamer. */
  streamersOnly: 'Only streamers can create CPM campaigns',
  /** What the streamer is told once it is stored. */
  submitted: `Campaign submitted! Our team will review it within ${CAMPAIGN_REVIEW_HOURS} hours.`,
} as const;

export const CAMPAIGN_FIELDS = ['title', 'description', 'targetViews', 'budgetAmount', 'contentLink'] as const;
export type CampaignField = (typeof CAMPAIGN_FIELDS)[number];

/** A campaign as typed: numbers as numbers or the inputs' text. */
export interface CampaignInput {
  title?: string | null | undefined;
  description?: string | null | undefined;
  targetViews?: number | string | null | undefined;
  budgetAmount?: number | string | null | undefined;
  contentLink?: string | null | undefined;
}

/** A campaign that passed: trimmed, whole views, the budget in dollars with cents, an empty link as null. */
export interface CpmCampaignDraft {
  title: string;
  description: string;
  targetViews: number;
  budgetAmount: number;
  contentLink: string | null;
}

export type CampaignCheck = { ok: true; value: CpmCampaignDraft } | { ok: false; errors: Partial<Record<CampaignField, string>> };

/** Whose words a check speaks: the form's (spec 02 §5 "Campaign form") or the shared definition's, which the server answers with. */
export type CampaignWording = 'form' | 'shared';

/** What `views` cost at $5 per 1,000, in dollars with cents. */
export function campaignPrice(views: number): number {
  return Math.round((views * CPM_PRICE_USD * 100) / 1000) / 100;
}

/** The views a budget buys at $5 per 1,000 (whole views, rounded down). */
export function viewsForBudget(budget: number): number {
  return Math.floor((budget * 1000) / CPM_PRICE_USD + 1e-9);
}

/** $1,234.50 / $500. */
export function formatUsd(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 })}`;
}

const numberOf = (raw: number | string | null | undefined): number | undefined => {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'number') return raw;
  const text = raw.trim().replace(/,/g, '');
  if (text === '') return undefined;
  return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
};

/**
 * Every field's rule at once, so the form can show each message beside its field; `errors` holds the first
 * failing rule per field. The same rules in both wordings; only the words of three messages differ.
 */
export function checkCampaign(input: CampaignInput, wording: CampaignWording = 'shared'): CampaignCheck {
  const m = CAMPAIGN_MESSAGES;
  const l = CAMPAIGN_LIMITS;
  const errors: Partial<Record<CampaignField, string>> = {};

  const title = (input.title ?? '').trim();
  if (title === '') errors.title = m.titleRequired;
  else if (title.length < l.title.min) errors.title = m.titleShort;
  else if (title.length > l.title.max) errors.title = m.titleLong;

  const description = (input.description ?? '').trim();
  if (description.length < l.description.min) errors.description = wording === 'form' ? m.descriptionShortForm : m.descriptionShort;
  else if (description.length > l.description.max) errors.description = m.descriptionLong;

  const views = numberOf(input.targetViews);
  let targetViews = 0;
  if (views === undefined || Number.isNaN(views)) errors.targetViews = views === undefined ? m.targetViewsMin : m.targetViewsWhole;
  else if (!Number.isInteger(views)) errors.targetViews = m.targetViewsWhole;
  else if (views < CAMPAIGN_MIN_VIEWS) errors.targetViews = m.targetViewsMin;
  else if (views > CAMPAIGN_MAX_VIEWS) errors.targetViews = m.targetViewsMax;
  else targetViews = views;

  const budget = numberOf(input.budgetAmount);
  let budgetAmount = 0;
  if (budget === undefined) errors.budgetAmount = m.budgetMin;
  else if (!Number.isFinite(budget)) errors.budgetAmount = m.budgetInvalid;
  else if (budget < CAMPAIGN_MIN_BUDGET_USD) errors.budgetAmount = m.budgetMin;
  else if (Math.abs(budget * 100 - Math.round(budget * 100)) > 1e-6) errors.budgetAmount = m.budgetInvalid;
  else if (targetViews > 0 && Math.round(budget * 100) !== Math.round(campaignPrice(targetViews) * 100))
    errors.budgetAmount = m.budgetMismatch(targetViews, campaignPrice(targetViews));
  else budgetAmount = Math.round(budget * 100) / 100;

  const link = (input.contentLink ?? '').trim();
  if (link !== '' && !isHttpUrl(link)) errors.contentLink = wording === 'form' ? m.contentLinkInvalidForm : m.contentLinkInvalid;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { title, description, targetViews, budgetAmount, contentLink: link === '' ? null : link } };
}

/** The first message of a failed check, in field order: what a server answers in one line. */
export function firstCampaignError(errors: Partial<Record<CampaignField, string>>): string | undefined {
  for (const field of CAMPAIGN_FIELDS) if (errors[field]) return errors[field];
  return undefined;
}
