// The hire dialog (spec 02 §2.7, ADR 0027) in headless Chromium against the real platform: a clipper made
// gold (the tiers lowered in this spec's rewards database, one clip with its video approved into the feed)
// shows 'Hire Clipper' on their clip in /feed and on their profile. A visitor, with no session, opens the
// dialog from each, sees the clipper's hiring profile and the three packages, chooses Growth Pack (which
// fills the budget and the description), fills in their details and sends: the server's message is the
// success toast, the dialog shows the rating link (ADR 0040) and Done closes it, and the clipper has the
// request with the package's budget. Once the clipper completes it, the link's page takes 1 to 5 stars and
// a review, and the dialog then shows the clipper's average rating and number of reviews.
import { HIRE_MESSAGES, HIRE_PACKAGES, HIRE_RATING_MESSAGES } from '@clipit/field-rules';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { openSite, toasts, untilInPage } from './support/site.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const GROWTH = HIRE_PACKAGES.find((pack) => pack.id === 'growth')!;

interface FeedAuthor {
  id: string;
  userId: string;
  user: { currentTier: number } | null;
}

interface StoredHire {
  clientName: string;
  clientEmail: string;
  projectDescription: string;
  budget: number | null;
  urgency: string;
  preferredContact: string;
  contactInfo: string;
  clientUserId: string | null;
  status: string;
}

describe('hiring a gold clipper', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let gold: Account;
  let clipId: string;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    // Tiers are data (ADR 0025): one approved clip reaches Gold in this spec's rewards database.
    await platform.rewardsDb.query(
      'UPDATE tiers SET min_total_approved = 1, min_approved_in_window = 1, min_approval_rate = 0, min_avg_views = 0 WHERE level IN (2, 3)',
    );
    gold = await seeder.signUp('clipper');
    [clipId] = (await seeder.publish(gold, 1, { name: 'Gold clip' })) as [string];
    await waitFor(
      async () => {
        const res = await seeder.api(`/api/clippers/${gold.id}/profile`);
        return res.status === 200 && ((await res.json()) as { clipperTier: string }).clipperTier === 'gold' ? true : undefined;
      },
      30_000,
      'the clipper reached the gold points tier',
    );
    // The feed's author carries the user tier the button reads: it follows rewards' standing by events.
    await waitFor(
      async () => {
        const page = (await (await seeder.api('/api/feed/clips?limit=10')).json()) as { submissions: FeedAuthor[] };
        const clip = page.submissions.find((c) => c.id === clipId);
        return clip && clip.userId === gold.id && (clip.user?.currentTier ?? 0) >= 3 ? true : undefined;
      },
      30_000,
      'the feed shows the clip’s author at Gold',
    );
  }, 300_000);

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `hire-${name}.png`), fullPage: false });

  const hiresOfGold = async (): Promise<StoredHire[]> =>
    ((await (await seeder.api('/api/hires', { cookie: gold.cookie })).json()) as { hires: StoredHire[] }).hires;

  /** The gold clipper accepts and completes the request the newest of their hires is. */
  async function completeNewestHire(): Promise<void> {
    const { hires } = (await (await seeder.api('/api/hires?status=pending', { cookie: gold.cookie })).json()) as {
      hires: { id: string }[];
    };
    const newest = hires[0];
    for (const action of ['accept', 'complete']) {
      const res = await seeder.api(`/api/hires/${newest!.id}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        cookie: gold.cookie,
      });
      expect(res.status).toBe(200);
    }
  }

  /** On the rating link's page: no stars refused in the rule's words, then `stars` and a review saved; the clipper's new figures shown. */
  async function rateOnPage(page: Page, link: string, stars: number, summary: string, screenshot: string) {
    await openSite(page, link);
    await page.getByRole('heading', { level: 1, name: 'Rate Your Hire' }).waitFor();
    const form = page.getByRole('form', { name: 'Rating' });
    await form.getByRole('button', { name: 'Submit Rating' }).click();
    await form.getByText(HIRE_RATING_MESSAGES.ratingRange, { exact: true }).waitFor();
    await form.getByRole('radio', { name: `${stars} stars` }).check();
    await form.getByRole('textbox', { name: /^Review/ }).fill('Sharp, fast and on brand.');
    await shot(page, `${screenshot}-rating`);
    await form.getByRole('button', { name: 'Submit Rating' }).click();
    await page.getByRole('status').filter({ hasText: HIRE_RATING_MESSAGES.saved }).waitFor();
    await page.getByText(summary, { exact: true }).waitFor();
    await shot(page, `${screenshot}-rated`);
  }

  /** In an open dialog: the profile, the packages, Growth Pack chosen, the details typed, sent; the toast, the rating link, Done. Answers the link. */
  async function hireWithGrowthPack(
    page: Page,
    opener: Locator,
    client: { name: string; email: string; contact: string },
    screenshot: string,
    rating: string,
  ): Promise<string> {
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Hire Clipper' });
    await dialog.waitFor();
    const summary = dialog.getByRole('region', { name: 'Clipper' });
    await summary.getByText(gold.displayName, { exact: true }).waitFor();
    await summary.getByText('Available', { exact: true }).waitFor();
    // The clipper's average rating and number of reviews (ADR 0040).
    await summary.getByText(rating, { exact: true }).waitFor();
    expect(await dialog.getByRole('region', { name: 'Packages' }).getByRole('button').allTextContents()).toEqual([
      'Speed Pack$407 clips · 24 hours',
      'Growth Pack$10020 clips · 3 days',
      'Viral MarketingCustomBook a call',
    ]);

    await dialog.getByRole('button', { name: /^Growth Pack/ }).click();
    expect(await dialog.getByRole('button', { name: /^Growth Pack/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await dialog.getByRole('textbox', { name: 'Budget (USD, optional)' }).inputValue()).toBe('100');
    expect(await dialog.getByRole('textbox', { name: 'Project Description' }).inputValue()).toBe(GROWTH.description);
    expect(await dialog.getByRole('combobox', { name: 'Urgency' }).inputValue()).toBe('medium');
    expect(await dialog.getByRole('combobox', { name: 'Preferred Contact' }).inputValue()).toBe('email');

    // A rule broken: its message beside the field, nothing sent.
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.getByText(HIRE_MESSAGES.clientNameShort, { exact: true }).waitFor();

    await dialog.getByRole('textbox', { name: 'Your Name' }).fill(client.name);
    await dialog.getByRole('textbox', { name: 'Email' }).fill(client.email);
    await dialog.getByRole('textbox', { name: 'Contact Info' }).fill(client.contact);
    await shot(page, `${screenshot}-filled`);
    await dialog.getByRole('button', { name: 'Send Request' }).click();

    await toasts(page).getByText(HIRE_MESSAGES.sent, { exact: true }).waitFor();
    const sent = dialog.getByRole('region', { name: 'Request sent' });
    const link = (await sent.getByRole('link').getAttribute('href'))!;
    expect(link).toMatch(new RegExp(`^${platform.url}/hires/[0-9a-f-]{36}/rate#token=[A-Za-z0-9_-]{43}$`));
    await shot(page, `${screenshot}-sent`);
    await sent.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    return link;
  }

  it('phone: Hire Clipper on the gold clipper’s clip in the feed opens the dialog; Growth Pack is sent', async () => {
    const page = await browser.newPage();
    await page.setViewportSize(PHONE);
    await openSite(page, `${platform.url}/feed`);
    const card = page.getByRole('feed', { name: 'Clips' }).getByRole('article', { name: 'Gold clip 1' });
    await card.waitFor();
    const hire = card.getByRole('button', { name: /^Hire Clipper/ });
    await hire.waitFor();
    // The dialog's code is not part of the feed's first render: it loads when the button is used.
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await shot(page, 'feed-phone');
    const link = await hireWithGrowthPack(
      page,
      hire,
      { name: 'Brand Team', email: 'team@brand.example.com', contact: 'team@brand.example.com' },
      'feed-phone',
      'No reviews yet',
    );
    expect(scripts.length).toBeGreaterThan(0);
    // Focus goes back to the button that opened it.
    await untilInPage(page, "document.activeElement?.textContent?.trim().startsWith('Hire Clipper') ?? false", {
      timeout: 5_000,
    });

    const [stored] = await hiresOfGold();
    expect(stored).toMatchObject({
      clientName: 'Brand Team',
      clientEmail: 'team@brand.example.com',
      projectDescription: GROWTH.description,
      budget: GROWTH.price,
      urgency: 'medium',
      preferredContact: 'email',
      contactInfo: 'team@brand.example.com',
      clientUserId: null,
      status: 'pending',
    });

    // Once the clipper completes it, the link's page rates it.
    await completeNewestHire();
    await rateOnPage(page, link, 4, '4.0 (1 review)', 'phone');
  });

  it('desktop: Hire Clipper on the gold clipper’s profile opens the dialog; Growth Pack is sent, Escape closes', async () => {
    const page = await browser.newPage();
    await page.setViewportSize(DESKTOP);
    await openSite(page, `${platform.url}/clipper/${gold.id}`);
    await page.getByRole('heading', { level: 1, name: gold.displayName }).waitFor();
    const hire = page.getByRole('button', { name: 'Hire Clipper', exact: true });

    // Escape closes the dialog without sending.
    await hire.click();
    await page.getByRole('dialog', { name: 'Hire Clipper' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Hire Clipper' }).waitFor({ state: 'detached' });

    const link = await hireWithGrowthPack(
      page,
      hire,
      { name: 'Studio North', email: 'hello@studio-north.example.com', contact: '@studionorth' },
      'profile-desktop',
      '4.0 (1 review)',
    );
    const hires = await hiresOfGold();
    expect(hires).toHaveLength(2);
    expect(hires[0]).toMatchObject({
      clientName: 'Studio North',
      budget: GROWTH.price,
      projectDescription: GROWTH.description,
      contactInfo: '@studionorth',
    });

    await completeNewestHire();
    await rateOnPage(page, link, 5, '4.5 (2 reviews)', 'desktop');
    // The profile, beside Hire Clipper, and its dialog show the new average and count.
    await openSite(page, `${platform.url}/clipper/${gold.id}`);
    await page.getByText('Rating 4.5 (2 reviews)', { exact: true }).waitFor();
    await hire.click();
    await page
      .getByRole('dialog', { name: 'Hire Clipper' })
      .getByRole('region', { name: 'Clipper' })
      .getByText('4.5 (2 reviews)', { exact: true })
      .waitFor();
  });
});
