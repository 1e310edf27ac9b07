// /clippers/dashboard in headless Chromium against the real platform (rewards included): a clipper signed
// up through the API with clips approved and rejected by the admin API and a weekly payout run, opens
// the dashboard on a phone and a desktop: the header, the stat cards, tier progress, the points counter,
// Refresh Points' toast, the four tabs (the Submit New Clip tab shows the public remote's form, loaded
// through the page's federation runtime), the display name edited, and a banner uploaded; a second clipper
// made gold (the tiers lowered in rewards' database, one clip approved) sees a hire request sent through the
// API in the Hire Requests tab, counted on the tab, and accepts it. Last, the account's safety (ADR 0032): the
// banner asking to confirm the address, the payout wallet changed with the password (refused without it),
// the 72-hour hold shown in the Earnings tab, and the sessions listed and ended elsewhere.
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { json } from '../support/http.js';
import { startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { clipSeeder, PASSWORD, type Account, type ClipSeeder } from './support/clips.js';
import { expectToast, openSite, signInBrowser, toasts } from './support/site.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const REJECTION = 'The clip is cut mid-sentence';
const NEW_WALLET = 'So11111111111111111111111111111111111111112';
/** A 30×10 purple PNG (the gateway checks an image's first bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAB4AAAAKCAIAAAAsFXl4AAAACXBIWXMAAAABAAAAAQBPJcTWAAAAF0lEQVR4nGOoMn9DI8QwavSo0aNGk4IA5S/kDBg2B84AAAAASUVORK5CYII=',
  'base64',
);

interface Stats {
  points: number;
  rank: number;
  totalClippers: number;
}

describe('/clippers/dashboard', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let clipper: Account;

  const earningOf = (id: string) =>
    waitFor(
      async () => ((await platform.rewardsDb.query('SELECT 1 FROM earnings WHERE submission_id = $1', [id])).rowCount ? true : undefined),
      15_000,
      `the earning of ${id}`,
    );

  beforeAll(async () => {
    platform = await startPlatform();
    seeder = await clipSeeder(platform);
    clipper = await seeder.signUp('clipper');
    // One approved clip paid by a weekly run, one approved since (pending), one rejected with a reason.
    const paid = await seeder.submit(clipper, { name: 'Paid clip', withoutVideo: true });
    await seeder.moderate(paid, 'approve');
    await earningOf(paid);
    await platform.runPayouts(new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    const pending = await seeder.submit(clipper, { name: 'Pending clip', withoutVideo: true });
    await seeder.moderate(pending, 'approve');
    await earningOf(pending);
    const rejected = await seeder.submit(clipper, { name: 'Rejected clip', withoutVideo: true });
    await seeder.moderate(rejected, 'reject', { reason: REJECTION });
    await waitFor(
      async () =>
        (await platform.rewardsDb.query("SELECT 1 FROM submissions WHERE id = $1 AND status = 'rejected'", [rejected])).rowCount
          ? true
          : undefined,
      15_000,
      'the rejection in rewards',
    );
  }, 180_000);

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
  });

  const stats = async (): Promise<Stats> => (await (await seeder.api(`/api/clipper/stats/${clipper.id}`)).json()) as Stats;

  const shot = async (page: Page, name: string) => {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `clipper-dashboard-${name}.png`), fullPage: true });
  };

  async function openDashboard(viewport: { width: number; height: number }, search = ''): Promise<Page> {
    await signInBrowser(browser.context, platform.url, clipper.sid);
    const page = await browser.newPage();
    await page.setViewportSize(viewport);
    await openSite(page, `${platform.url}/clippers/dashboard${search}`);
    await expect(page.title()).resolves.toBe('Clipper Dashboard');
    await page.getByRole('heading', { level: 1, name: /^Welcome back, / }).waitFor();
    return page;
  }

  async function openDashboardAs(account: Account, viewport: { width: number; height: number }, search = ''): Promise<Page> {
    await browser.context.clearCookies();
    await signInBrowser(browser.context, platform.url, account.sid);
    const page = await browser.newPage();
    await page.setViewportSize(viewport);
    await openSite(page, `${platform.url}/clippers/dashboard${search}`);
    await page.getByRole('heading', { level: 1, name: `Welcome back, ${account.displayName}!` }).waitFor();
    return page;
  }

  it('signed out: the dashboard loads the user first and sends a visitor to /login (spec 02 §2.3)', async () => {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/clippers/dashboard`);
    await page.waitForURL(`${platform.url}/login`);
  });

  it('desktop: header, cards, tier progress, the points counter, Refresh Points and the four tabs', async () => {
    const page = await openDashboard(DESKTOP);
    const main = page.locator('main');
    const header = main.getByRole('region', { name: `Welcome back, ${clipper.displayName}!` });
    await header.getByRole('heading', { level: 1 }).waitFor();
    await header.getByText('Bronze Tier').waitFor();
    await header.getByText('10 $CLIP per clip').waitFor();
    expect(await header.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/api/logout');

    const card = (title: string) => main.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
    await card('Approved Clips').getByText('2', { exact: true }).waitFor();
    await card('Approved Clips').getByText('2 in the last 4 weeks').waitFor();
    await card('Approval Rate').getByText('66.7%').waitFor();
    await card('Avg Views').getByText('0', { exact: true }).waitFor();
    await card('This Week').getByText('2', { exact: true }).waitFor();

    const progress = main.getByRole('progressbar', { name: 'Progress to Silver' });
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    await main.getByRole('list', { name: 'Missing requirements for Silver' }).waitFor();
    await main.getByRole('heading', { name: 'How Clip Points Work' }).waitFor();

    // The counter runs up to the points rewards computed (1.5 s), with the rank among all clippers.
    const { points, rank, totalClippers } = await stats();
    expect(points).toBeGreaterThan(0);
    await main.getByTestId('points-counter').getByText(String(points), { exact: true }).waitFor({ timeout: 5_000 });
    await main.getByText(`of ${totalClippers} ${totalClippers === 1 ? 'clipper' : 'clippers'}`, { exact: false }).waitFor();
    await main.getByText(`#${rank}`, { exact: true }).waitFor();
    await main.getByRole('list', { name: 'Locked features' }).getByText('Streamer Multipliers').waitFor();
    // Gold unlocks paid campaigns (ADR 0041): rewards' list says so below gold.
    await main.getByRole('list', { name: 'Locked features' }).getByText('Paid Campaigns', { exact: true }).waitFor();
    const breakdown = main.getByRole('button', { name: 'Show point breakdown' });
    await breakdown.click();
    expect(await main.getByRole('button', { name: 'Hide point breakdown' }).getAttribute('aria-expanded')).toBe('true');

    // Refresh Points recomputes now: the toast says the new total, as rewards then serves it.
    await main.getByRole('button', { name: 'Refresh Points' }).click();
    await toasts(page).getByText('Points Refreshed!', { exact: true }).waitFor();
    await expectToast(page, 'Points Refreshed!', `Updated to ${(await stats()).points} points`);

    const tab = (name: string) => main.getByRole('tab', { name, exact: true });
    // Submissions: the three clips, the rejection's reason.
    const submissions = main.getByRole('list', { name: 'Recent submissions' });
    await submissions.getByText('Rejected clip').waitFor();
    await submissions.getByText(`Reason: ${REJECTION}`).waitFor();
    expect(await submissions.getByRole('listitem').count()).toBe(3);

    // Submit New Clip: the public remote's form, in this page.
    await tab('Submit New Clip').click();
    await page.waitForURL(/\?tab=submit$/);
    const form = main.getByRole('form', { name: 'Submit Your Clip' });
    await form.getByLabel('Clip Title').waitFor();
    await form.getByRole('button', { name: 'Submit Clip' }).waitFor();
    await shot(page, 'submit-tab-desktop');

    // Earnings: the summary, the ledger payout (no chain link) and both earnings.
    await tab('Earnings').click();
    const summary = main.getByRole('list', { name: 'Earnings summary' });
    await summary.getByRole('listitem').filter({ hasText: 'Paid' }).getByText('10 $CLIP').waitFor();
    await summary.getByRole('listitem').filter({ hasText: 'Pending' }).getByText('10 $CLIP').waitFor();
    await summary.getByRole('listitem').filter({ hasText: 'Total' }).getByText('20 $CLIP').waitFor();
    const payouts = main.getByRole('list', { name: 'Payouts' });
    await payouts.getByText('Ledger record', { exact: false }).waitFor();
    expect(await payouts.getByRole('link').count()).toBe(0);
    const earnings = main.getByRole('list', { name: 'Earnings' });
    await earnings.getByText('Paid clip').waitFor();
    await earnings.getByText('Pending clip').waitFor();

    await tab('Profile').click();
    await page.waitForURL(/\?tab=profile$/);
    await main.getByLabel('Display Name').waitFor();
    await shot(page, 'desktop');
  });

  it('desktop: the Profile tab changes the display name (sent only when changed) and uploads a banner', async () => {
    const page = await openDashboard(DESKTOP, '?tab=profile');
    const main = page.locator('main');
    const writes: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/user/'))
        writes.push(`${r.method()} ${new URL(r.url()).pathname.replace(/image-uploads\/[^/]+$/, 'image-uploads/…')}`);
    });
    const name = main.getByLabel('Display Name');
    const save = main.getByRole('button', { name: 'Save Profile' });
    expect(await save.isDisabled()).toBe(true);
    await name.fill('Dashboard Ace');
    await save.click();
    await expectToast(page, 'Profile updated!', 'Your profile has been updated successfully.');
    await main.getByRole('heading', { level: 1, name: 'Welcome back, Dashboard Ace!' }).waitFor();
    expect(await save.isDisabled()).toBe(true);

    await main.getByRole('button', { name: 'Upload Banner' }).click();
    await expectToast(page, 'No banner image selected', 'Choose a banner image first.');
    await main.getByLabel('Banner Image').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    await main.getByRole('button', { name: 'Upload Banner' }).click();
    await toasts(page).getByText('Banner updated!', { exact: true }).waitFor();
    await main.getByRole('img', { name: 'Your current banner' }).waitFor();
    expect(writes).toEqual([
      'POST /api/user/update-profile',
      'POST /api/user/banner/upload-url',
      'PUT /api/user/image-uploads/…',
      'PUT /api/user/banner',
    ]);
    await shot(page, 'profile-desktop');
  });

  it('phone: the dashboard fits the screen, the tabs scroll sideways and work', async () => {
    const page = await openDashboard(PHONE);
    const main = page.locator('main');
    await main.getByRole('heading', { name: 'Tier Progress' }).waitFor();
    const { points } = await stats();
    await main.getByTestId('points-counter').getByText(String(points), { exact: true }).waitFor({ timeout: 5_000 });
    // No sideways scrolling of the page on a phone.
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
    await main.getByRole('tab', { name: 'Earnings', exact: true }).click();
    await main.getByRole('list', { name: 'Payouts' }).waitFor();
    await main.getByRole('tab', { name: 'Submissions', exact: true }).click();
    await main.getByRole('list', { name: 'Recent submissions' }).waitFor();
    await shot(page, 'phone');
  });

  it('desktop: a gold clipper sees a hire request in the Hire Requests tab, counted on the tab, and accepts it', async () => {
    // Tiers are data (ADR 0025): one approved clip reaches Gold in this spec's rewards database. Last in this
    // file, as it changes every clipper's tier.
    await platform.rewardsDb.query(
      'UPDATE tiers SET min_total_approved = 1, min_approved_in_window = 1, min_approval_rate = 0, min_avg_views = 0 WHERE level IN (2, 3)',
    );
    const gold = await seeder.signUp('clipper');
    const clip = await seeder.submit(gold, { name: 'Gold clip', withoutVideo: true });
    await seeder.moderate(clip, 'approve');
    await waitFor(
      async () => {
        const res = await seeder.api(`/api/clippers/${gold.id}/profile`);
        return res.status === 200 && ((await res.json()) as { clipperTier: string }).clipperTier === 'gold' ? true : undefined;
      },
      20_000,
      'the clipper reached gold',
    );
    const sent = await seeder.api(`/api/clippers/${gold.id}/hire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clipperId: gold.id,
        clientName: 'Brand Team',
        clientEmail: 'team@brand.example.com',
        projectDescription: 'Speed Pack: 7 clips delivered within 24 hours ($40).',
        budget: 40,
        urgency: 'high',
        preferredContact: 'telegram',
        contactInfo: '@brandteam',
      }),
    });
    expect(sent.status).toBe(201);

    const page = await openDashboardAs(gold, DESKTOP);
    const main = page.locator('main');
    const tab = main.getByRole('tab', { name: 'Hire Requests 1 pending' });
    await tab.waitFor();
    await tab.click();
    await page.waitForURL(/\?tab=hires$/);
    const request = main.getByRole('list', { name: 'Hire requests' }).getByRole('listitem').filter({ hasText: 'Brand Team' });
    await request.getByRole('link', { name: 'team@brand.example.com' }).waitFor();
    await request.getByText('Telegram: @brandteam').waitFor();
    await request.getByText('High (ASAP)').waitFor();
    await request.getByText('$40', { exact: true }).waitFor();
    await request.getByText('Pending', { exact: true }).waitFor();
    await shot(page, 'hire-requests-desktop');

    await request.getByLabel('Notes for the client (optional)').fill('On it, clips by tomorrow');
    await request.getByRole('button', { name: 'Accept' }).click();
    await toasts(page).getByText('Hire request accepted', { exact: true }).waitFor();
    await request.getByText('Accepted', { exact: true }).waitFor();
    await request.getByRole('button', { name: 'Mark Completed' }).waitFor();
    await main.getByRole('tab', { name: 'Hire Requests', exact: true }).waitFor();
    const stored = (await (await seeder.api('/api/hires', { cookie: gold.cookie })).json()) as {
      hires: Array<{ status: string; clipperNotes: string | null }>;
    };
    expect(stored.hires.map((h) => [h.status, h.clipperNotes])).toEqual([['accepted', 'On it, clips by tomorrow']]);
    await shot(page, 'hire-accepted-desktop');

    // The Profile tab's hiring profile: gold, hireable, the three packages as services.
    await main.getByRole('tab', { name: 'Profile', exact: true }).click();
    const profile = main.getByRole('form', { name: 'Hiring profile' });
    await profile.getByText('You can be hired: the Hire Clipper button shows on your clips.').waitFor();
    expect(await profile.getByRole('list', { name: 'Your services' }).getByRole('listitem').count()).toBe(3);
    await profile.getByLabel('Bio').fill('Cutting crypto streams daily.');
    await profile.getByRole('button', { name: 'Save Hiring Profile' }).click();
    await toasts(page).getByText('Hiring profile updated!', { exact: true }).waitFor();
    expect(await (await seeder.api(`/api/clippers/${gold.id}/profile`)).json()).toMatchObject({ bio: 'Cutting crypto streams daily.' });
    await shot(page, 'hiring-profile-desktop');
  });
  it('desktop: asks to confirm the address, changes the wallet only with the password, shows the hold, and signs out elsewhere', async () => {
    const elsewhere = await seeder.api('/api/auth/login', json('POST', { twitterHandle: clipper.handle, password: PASSWORD }));
    const otherCookie = `clipit.sid=${/clipit\.sid=([^;]*)/.exec(elsewhere.headers.get('set-cookie') ?? '')?.[1]}`;
    await elsewhere.arrayBuffer();

    const page = await openDashboard(DESKTOP, '?tab=profile');
    const main = page.locator('main');
    const banner = main.getByRole('region', { name: 'Confirm your email address' });
    await banner.getByRole('button', { name: 'Send a New Link' }).click();
    await toasts(page).getByText('We sent a new confirmation link to your email address', { exact: true }).waitFor();

    const wallet = main.getByRole('form', { name: 'Change wallet' });
    await wallet.getByLabel('New Solana Wallet Address').fill(NEW_WALLET);
    await wallet.getByRole('button', { name: 'Change Wallet' }).click();
    await wallet.getByText('Enter your current password to change your wallet address').waitFor();
    await wallet.getByLabel('Current Password').fill(PASSWORD);
    await wallet.getByRole('button', { name: 'Change Wallet' }).click();
    await expectToast(page, 'Wallet Updated', 'Wallet updated. Payouts to the new wallet start 72 hours after a change.');
    await main.getByText(NEW_WALLET, { exact: true }).waitFor();

    const sessions = main.getByRole('list', { name: 'Active sessions' });
    await sessions.getByText('This device').waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    await main.getByRole('button', { name: 'Sign Out Everywhere Else' }).click();
    await toasts(page).getByText('1 other session was signed out.', { exact: true }).waitFor();
    expect((await seeder.api('/api/user/me', { cookie: otherCookie })).status).toBe(401);
    await shot(page, 'account-safety-desktop');

    // The pending clip's earning waits 72 hours for the new wallet, and the Earnings tab says so.
    await waitFor(
      async () =>
        (await platform.rewardsDb.query('SELECT 1 FROM people WHERE id = $1 AND wallet_changed_at IS NOT NULL', [clipper.id])).rowCount
          ? true
          : undefined,
      15_000,
      'the wallet change in rewards',
    );
    await page.reload();
    await main.getByRole('tab', { name: 'Earnings', exact: true }).click();
    await main
      .getByRole('status', { name: 'Payouts on hold' })
      .getByText(/on hold until/)
      .waitFor();
    await shot(page, 'payout-hold-desktop');
  });
});
