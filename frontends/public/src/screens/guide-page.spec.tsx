import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import GuidePage from './guide-page.js';

const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section')!;

describe('/guide', () => {
  it('is one page under one h1, with the rules, tiers, clip points, payouts and a call to action', () => {
    const gateway = fakeGateway();
    renderScreen(<GuidePage />, '/guide');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['How It Works']);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Clip Rules',
      'Tiers',
      'Clip Points',
      'Payouts',
      'Ready to Clip?',
    ]);
    // Nothing to load: the page is text.
    expect(gateway.calls).toEqual([]);
  });

  it('quotes the clip rules of spec 01 §5', () => {
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

  it('shows the four tiers and the displayed requirement table (10 and 25 approved clips, not 16 or 51)', () => {
    renderScreen(<GuidePage />, '/guide');
    const tiers = section('Tiers');
    expect(
      within(tiers)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Bronze', 'Silver', 'Gold', 'Diamond']);
    const table = within(tiers).getByRole('table', { name: 'Tier requirements' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Tier', 'Approved total', 'Approved in last 4 weeks', 'Approval rate', 'Average views'],
      ['Bronze', '0+', '1+', '50%+', '100+'],
      ['Silver', '10+', '5+', '70%+', '500+'],
      ['Gold', '25+', '10+', '80%+', '1500+'],
    ]);
    expect(tiers).not.toHaveTextContent(/\b(16|51)\b/);
  });

  it('explains clip points and weekly Friday payouts in $CLIP to the Solana wallet', () => {
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
    renderScreen(<GuidePage />, '/guide');
    expect(screen.getByRole('link', { name: 'Apply / Sign Up' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/login');
    for (const name of ['Submit a Clip', 'Submit']) expect(screen.getByRole('link', { name })).toHaveAttribute('href', '/submit');
  });
});
