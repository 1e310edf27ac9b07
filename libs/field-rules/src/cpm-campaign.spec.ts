import { describe, expect, it } from '@jest/globals';
import {
  CAMPAIGN_MESSAGES as M,
  CAMPAIGN_MIN_VIEWS,
  campaignPrice,
  checkCampaign,
  firstCampaignError,
  formatUsd,
  viewsForBudget,
} from './cpm-campaign.js';

const valid = {
  title: '  Launch week push ',
  description: 'Clips of the launch stream, posted during launch week.',
  targetViews: 100_000,
  budgetAmount: 500,
  contentLink: '',
};

const errorsOf = (input: Parameters<typeof checkCampaign>[0], wording?: 'form' | 'shared') => {
  const result = checkCampaign(input, wording);
  return result.ok ? {} : result.errors;
};

describe('checkCampaign', () => {
  it('accepts the minimum campaign: 100,000 views for $500, trimmed, an empty link as null', () => {
    expect(checkCampaign(valid)).toEqual({
      ok: true,
      value: { title: 'Launch week push', description: valid.description, targetViews: 100_000, budgetAmount: 500, contentLink: null },
    });
  });

  it('takes the numbers as the inputs give them (text, thousands separators) and keeps a link', () => {
    const result = checkCampaign({ ...valid, targetViews: '250,000', budgetAmount: '1250.00', contentLink: 'https://x.com/a/status/1' });
    expect(result.ok && result.value).toMatchObject({ targetViews: 250_000, budgetAmount: 1250, contentLink: 'https://x.com/a/status/1' });
  });

  it('the minimum is 100,000 views in both wordings (ADR 0027): the form no longer takes 1,000', () => {
    expect(errorsOf({ ...valid, targetViews: 1000, budgetAmount: 5 }, 'form').targetViews).toBe(M.targetViewsMin);
    expect(errorsOf({ ...valid, targetViews: 99_999 }).targetViews).toBe(M.targetViewsMin);
    expect(errorsOf({ ...valid, targetViews: '' }).targetViews).toBe(M.targetViewsMin);
    expect(M.targetViewsMin).toBe('Minimum 100,000 views required (minimum $500 budget)');
  });

  it('views are whole and at most 100 million', () => {
    expect(errorsOf({ ...valid, targetViews: 100_000.5 }).targetViews).toBe(M.targetViewsWhole);
    expect(errorsOf({ ...valid, targetViews: 'lots' }).targetViews).toBe(M.targetViewsWhole);
    expect(errorsOf({ ...valid, targetViews: 100_000_001, budgetAmount: 500_000.01 }).targetViews).toBe(M.targetViewsMax);
  });

  it('the budget is at least $500 and follows the views at $5 per 1,000', () => {
    expect(errorsOf({ ...valid, budgetAmount: 499 }).budgetAmount).toBe(M.budgetMin);
    expect(errorsOf({ ...valid, budgetAmount: null }).budgetAmount).toBe(M.budgetMin);
    expect(errorsOf({ ...valid, budgetAmount: 'abc' }).budgetAmount).toBe(M.budgetInvalid);
    expect(errorsOf({ ...valid, budgetAmount: 500.001 }).budgetAmount).toBe(M.budgetInvalid);
    expect(errorsOf({ ...valid, targetViews: 200_000, budgetAmount: 500 }).budgetAmount).toBe(
      'Budget must match the views at $5 per 1,000 views: $1,000 for 200,000 views',
    );
    expect(checkCampaign({ ...valid, targetViews: 123_457, budgetAmount: 617.29 }).ok).toBe(true);
  });

  it('title: required in the form’s words when empty, 5 to 100 characters in the shared words', () => {
    expect(errorsOf({ ...valid, title: '   ' }).title).toBe(M.titleRequired);
    expect(errorsOf({ ...valid, title: 'Four' }).title).toBe(M.titleShort);
    expect(errorsOf({ ...valid, title: 't'.repeat(101) }).title).toBe(M.titleLong);
    expect(checkCampaign({ ...valid, title: 't'.repeat(100) }).ok).toBe(true);
  });

  it('description: 20 to 2000 characters, the short one in each wording’s words', () => {
    expect(errorsOf({ ...valid, description: 'too short' }, 'form').description).toBe(M.descriptionShortForm);
    expect(errorsOf({ ...valid, description: 'too short' }).description).toBe(M.descriptionShort);
    expect(errorsOf({ ...valid, description: 'd'.repeat(2001) }).description).toBe(M.descriptionLong);
    expect(checkCampaign({ ...valid, description: 'd'.repeat(2000) }).ok).toBe(true);
  });

  it('contentLink: optional, an http(s) URL, in each wording’s words', () => {
    expect(errorsOf({ ...valid, contentLink: 'not a link' }, 'form').contentLink).toBe(M.contentLinkInvalidForm);
    expect(errorsOf({ ...valid, contentLink: 'ftp://x.com/a' }).contentLink).toBe(M.contentLinkInvalid);
    expect(checkCampaign({ ...valid, contentLink: undefined }).ok).toBe(true);
  });

  it('firstCampaignError answers in field order', () => {
    expect(firstCampaignError(errorsOf({ title: '', description: '', targetViews: 0, budgetAmount: 0 }))).toBe(M.titleRequired);
    expect(firstCampaignError(errorsOf({ ...valid, contentLink: 'x', budgetAmount: 1 }))).toBe(M.budgetMin);
  });
});

describe('the price', () => {
  it('is $5 per 1,000 views, in cents, and a budget buys whole views', () => {
    expect(campaignPrice(CAMPAIGN_MIN_VIEWS)).toBe(500);
    expect(campaignPrice(123_457)).toBe(617.29);
    expect(viewsForBudget(500)).toBe(100_000);
    expect(viewsForBudget(617.29)).toBe(123_458);
    expect(formatUsd(500)).toBe('$500');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
  });
});
