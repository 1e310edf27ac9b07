import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { Tier } from '@clipit/web-api';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import GuidePage from './guide-page.js';

const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section')!;

/** What rewards serves at GET /api/tiers (its seeded table, ADR 0025). */
const TIERS: Tier[] = [
  {
    level: 1,
    name: 'Bronze',
    description: 'New clippers',
    ratePerPost: 10,
    minTotalApproved: 0,
    windowWeeks: 4,
    minApprovedInWindow: 1,
    minApprovalRate: 0.5,
    minAvgViews: 100,
  },
  {
    level: 2,
    name: 'Silver',
    description: 'Consistent performers',
    ratePerPost: 15,
    minTotalApproved: 10,
    windowWeeks: 4,
    minApprovedInWindow: 5,
    minApprovalRate: 0.7,
    minAvgViews: 500,
  },
  {
    level: 3,
    name: 'Gold',
    description: 'High-quality creators',
    ratePerPost: 25,
    minTotalApproved: 25,
    windowWeeks: 4,
    minApprovedInWindow: 10,
    minApprovalRate: 0.8,
    minAvgViews: 1500,
  },
  {
    level: 4,
    name: 'Diamond',
    description: 'Elite viral content',
    ratePerPost: 40,
    minTotalApproved: 50,
    windowWeeks: 4,
    minApprovedInWindow: 20,
    minApprovalRate: 0.9,
    minAvgViews: 5000,
  },
];

/** A gateway that answers GET /api/tiers with `reply` (the tiers by default) and nothing else. */
const tiersGateway = (reply: () => Reply | Promise<Reply> = () => ({ json: TIERS })) =>
  fakeGateway((call) => (call.method === 'GET' && call.url === '/api/tiers' ? reply() : { status: 404, text: 'No such route' }));

const tableRows = () =>
  within(screen.getByRole('table', { name: 'Tier requirements' }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('/guide', () => {
  it('is one page under one h1, with the rules, tiers, clip points, payouts and a call to action', async () => {
    const gateway = tiersGateway();
    renderScreen(<GuidePage />, '/guide');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['How It Works']);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Clip Rules',
      'Tiers',
      'Clip Points',
      'Payouts',
      'Ready to Clip?',
    ]);
    // The one read: the tiers, from their owner.
    await screen.findByRole('table', { name: 'Tier requirements' });
    expect(gateway.calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/tiers']);
  });

  it('quotes the clip rules of spec 01 §5', () => {
    tiersGateway();
    renderScreen(<GuidePage />, '/guide');
    const rules = section('Clip Rules');
    for (const text of [
      'Put the CLIP IT watermark in the top right corner. No other logos.',
      'Clips are at least 15 seconds long. Uploads are capped at 40 seconds.',
      'Portrait, 9:16.',
      'Post on Instagram, TikTok or YouTube Shorts.',
      'No bots and no bought views, likes or followers.',
      'Target viewers in the USA, UK, Canada, Australia and New Zealand.',
      'Every clip ends with a call to action.',
      'Tag the main CLIP IT account in every post.',
    ]) {
      expect(within(rules).getByText(text)).toBeVisible();
    }
  });

  it('shows the four tiers and the displayed requirement table (10 and 25 approved clips, not 16 or 51)', async () => {
    tiersGateway();
    renderScreen(<GuidePage />, '/guide');
    const tiers = section('Tiers');
    await within(tiers).findByRole('table', { name: 'Tier requirements' });
    for (const who of ['New clippers', 'Consistent performers', 'High-quality creators', 'Elite viral content'])
      expect(within(tiers).getByText(who)).toBeVisible();
    expect(
      within(tiers)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Bronze', 'Silver', 'Gold', 'Diamond']);
    expect(tableRows()).toEqual([
      ['Tier', 'Approved total', 'Approved in last 4 weeks', 'Approval rate', 'Average views'],
      ['Bronze', '0+', '1+', '50%+', '100+'],
      ['Silver', '10+', '5+', '70%+', '500+'],
      ['Gold', '25+', '10+', '80%+', '1500+'],
    ]);
    expect(tiers).not.toHaveTextContent(/\b(16|51)\b/);
  });

  it('reads the table from the tiers rewards serves: a changed requirement shows, the highest tier’s stay unpublished', async () => {
    const changed = TIERS.map((tier) => (tier.name === 'Silver' ? { ...tier, minTotalApproved: 12, minApprovalRate: 0.75 } : tier));
    // Out of order on the wire: the page orders by level.
    tiersGateway(() => ({ json: [...changed].reverse() }));
    renderScreen(<GuidePage />, '/guide');
    await screen.findByRole('table', { name: 'Tier requirements' });
    expect(tableRows()).toEqual([
      ['Tier', 'Approved total', 'Approved in last 4 weeks', 'Approval rate', 'Average views'],
      ['Bronze', '0+', '1+', '50%+', '100+'],
      ['Silver', '12+', '5+', '75%+', '500+'],
      ['Gold', '25+', '10+', '80%+', '1500+'],
    ]);
    expect(section('Tiers')).not.toHaveTextContent('5000+');
  });

  it('says it is loading the tiers while they come, and shows the rest of the page meanwhile', async () => {
    let answer!: (reply: Reply) => void;
    tiersGateway(() => new Promise<Reply>((resolve) => (answer = resolve)));
    renderScreen(<GuidePage />, '/guide');
    const tiers = section('Tiers');
    expect(within(tiers).getByRole('status')).toHaveTextContent('Loading tiers');
    expect(within(tiers).queryByRole('table')).toBeNull();
    expect(section('Clip Rules')).toHaveTextContent('Portrait, 9:16.');
    await waitFor(() => expect(answer).toBeDefined());
    answer({ json: TIERS });
    await within(tiers).findByRole('table', { name: 'Tier requirements' });
    expect(within(tiers).queryByRole('status')).toBeNull();
  });

  it('says the tiers failed to load, and Try Again asks again', async () => {
    let fail = true;
    const gateway = tiersGateway(() => (fail ? { status: 503, text: 'The rewards service is unavailable' } : { json: TIERS }));
    renderScreen(<GuidePage />, '/guide');
    const tiers = section('Tiers');
    expect(await within(tiers).findByRole('alert')).toHaveTextContent('Failed to load the tiers. Please try again.');
    expect(within(tiers).queryByRole('table')).toBeNull();
    fail = false;
    await userEvent.click(within(tiers).getByRole('button', { name: 'Try Again' }));
    await within(tiers).findByRole('table', { name: 'Tier requirements' });
    expect(gateway.calls.filter((call) => call.url === '/api/tiers')).toHaveLength(2);
  });

  it('explains clip points and weekly Friday payouts in $CLIP to the Solana wallet', () => {
    tiersGateway();
    renderScreen(<GuidePage />, '/guide');
    const points = section('Clip Points');
    expect(within(points).getByText('10 base points for every approved clip, multiplied by your approval ratio.')).toBeVisible();
    expect(within(points).getByText('Plus a view bonus: your total views divided by 10.')).toBeVisible();
    expect(within(points).getByText('A 50% inactivity penalty applies after 2 weeks with no approved clip.')).toBeVisible();
    expect(section('Payouts')).toHaveTextContent(
      'Earnings are paid weekly, on Fridays, in $CLIP to the Solana wallet address on your profile.',
    );
  });

  it('links to sign up (/login) and to submit (/submit)', () => {
    tiersGateway();
    renderScreen(<GuidePage />, '/guide');
    expect(screen.getByRole('link', { name: 'Apply / Sign Up' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/login');
    for (const name of ['Submit a Clip', 'Submit']) expect(screen.getByRole('link', { name })).toHaveAttribute('href', '/submit');
  });
});
