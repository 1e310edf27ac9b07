// What the cpm-campaigns tab, the streamer's tokens, the clipper's hire requests and hiring profile read
// and write (spec 02 §2.5, §2.6, §3, §5, §7; ADR 0027), typed by the gateway's generated API.
import {
  CAMPAIGN_MIN_BUDGET_USD,
  CAMPAIGN_MIN_VIEWS,
  campaignPrice,
  HIRE_CONTACT_LABELS,
  HIRE_URGENCY_LABELS,
  viewsForBudget,
} from '@clipit/field-rules';
import { HttpError, type CpmCampaign, type HireRequest } from '@clipit/web-api';

/** Query keys: the default query function GETs the joined key. */
export const campaignsKey = ['/api/cpm-campaigns'] as const;
export const myTokensKey = ['/api/tokens/mine'] as const;
/** Every hire request received (the first page, newest first). */
export const hiresKey = ['/api/hires'] as const;
/** Only the pending ones: what the tab's badge counts (`total`). */
export const pendingHiresKey = ['/api/hires?status=pending'] as const;
export const hiringProfileKey = (userId: string) => ['/api/clippers', userId, 'profile'] as const;

/** The form's starting figures (ADR 0027): the minimum campaign. */
export const CAMPAIGN_FORM_DEFAULTS = {
  title: '',
  description: '',
  targetViews: String(CAMPAIGN_MIN_VIEWS),
  budgetAmount: String(CAMPAIGN_MIN_BUDGET_USD),
  contentLink: '',
};
export type CampaignFormValues = typeof CAMPAIGN_FORM_DEFAULTS;

/** A typed number ('100,000', ' 500 '); undefined when it is not a plain non-negative number. */
export function typedNumber(text: string): number | undefined {
  const clean = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(clean)) return undefined;
  return Number(clean);
}

/** The budget the typed views cost ($5 per 1,000), as the budget field shows it; unchanged when the views are not a number. */
export function budgetFieldFor(viewsText: string, currentBudget: string): string {
  const views = typedNumber(viewsText);
  return views === undefined ? currentBudget : String(campaignPrice(Math.floor(views)));
}

/** The views a typed budget buys, as the views field shows them; unchanged when the budget is not a number. */
export function viewsFieldFor(budgetText: string, currentViews: string): string {
  const budget = typedNumber(budgetText);
  return budget === undefined ? currentViews : String(viewsForBudget(budget));
}

export const CAMPAIGN_STATUS: Record<CpmCampaign['status'], { label: string; variant: 'warning' | 'success' | 'destructive' | 'primary' }> =
  {
    pending: { label: 'Pending', variant: 'warning' },
    approved: { label: 'Approved', variant: 'success' },
    rejected: { label: 'Rejected', variant: 'destructive' },
    completed: { label: 'Completed', variant: 'primary' },
  };

/** How much of a campaign's target has been delivered, 0 to 100 (whole percent). */
export function deliveredPercent(campaign: Pick<CpmCampaign, 'deliveredViews' | 'targetViews'>): number {
  if (campaign.targetViews <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((campaign.deliveredViews / campaign.targetViews) * 100)));
}

export const HIRE_STATUS: Record<HireRequest['status'], { label: string; variant: 'warning' | 'success' | 'secondary' | 'primary' }> = {
  pending: { label: 'Pending', variant: 'warning' },
  accepted: { label: 'Accepted', variant: 'success' },
  declined: { label: 'Declined', variant: 'secondary' },
  completed: { label: 'Completed', variant: 'primary' },
};

export const urgencyLabel = (urgency: HireRequest['urgency']) => HIRE_URGENCY_LABELS[urgency];
export const contactLabel = (method: HireRequest['preferredContact']) => HIRE_CONTACT_LABELS[method];

/** A request's budget as the clipper reads it: dollars, or 'Call to discuss' when none is named (Viral Marketing). */
export function hireBudgetText(budget: number | null): string {
  if (budget === null) return 'Call to discuss';
  return `$${budget.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(budget) ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** A list typed one item a line (or comma-separated): trimmed, empty ones dropped. */
export function listOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** What a failed call's toast says: the server's text, or `fallback` when there is none (the network failed). */
export function serverText(error: Error, fallback: string): string {
  return error instanceof HttpError && error.text.trim() !== '' ? error.text : fallback;
}
