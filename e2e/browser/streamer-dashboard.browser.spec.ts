// The streamer dashboard (spec 02 §2.3) in headless Chromium against the real platform: a streamer signed
// up through the API, a clipper who follows them and tags two clips with their token (one with a video the
// media worker processes, approved by the admin API; one left pending), opens /clippers/dashboard on a
// desktop and a phone: the header, the three summary cards, the three tabs, the next stream time set,
// Go Live (the toast counts the follower told) and Go Offline, and Logout to /login; a CPM campaign submitted
// through the cpm-campaigns tab (one below 100,000 views refused in the form) and listed pending; a token added
// in the streaming tab's 'Your tokens'; on a phone and a desktop, a streamer with 51 followers sees the first
// 50 and 'Load more followers' brings the last, and a streamer changes display name, picture and banner in the
// Profile tab and sees them on their public profile; a streamer with 53 tagged clips sees the true total and loads past
// the first 50 (desktop and phone).
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { expectToast, openSite, signInBrowser, toasts } from './support/site.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** A 30×10 purple PNG (the gateway checks an image's first bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAB4AAAAKCAIAAAAsFXl4AAAACXBIWXMAAAABAAAAAQBPJcTWAAAAF0lEQVR4nGOoMn9DI8QwavSo0aNGk4IA5S/kDBg2B84AAAAASUVORK5CYII=',
  'base64',
);
const TOKEN_LINK = 'https://pump.fun/coin/streamerdash';

interface Me {
  isLive: 'true' | 'false';
  nextStreamTime: string | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as a datetime-local input holds it (local time, minutes). */
const localValue = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

describe('the streamer dashboard (/clippers/dashboard as a streamer)', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let streamer: Account;
  let fan: Account;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    streamer = await seeder.signUp('streamer', { tokenLink: TOKEN_LINK });
    fan = await seeder.signUp('clipper');
    const followed = await seeder.api(`/api/follow/${streamer.id}`, { method: 'POST', cookie: fan.cookie });
    expect(followed.status).toBe(200);
    const token = await seeder.tokenOf(streamer);
    // One clip with a video (its poster on the card), approved; one without, left pending.
    const approved = await seeder.submit(fan, { name: 'Tagged highlight', tokenId: token.id });
    await seeder.waitProcessed([approved]);
    await seeder.moderate(approved, 'approve');
    await seeder.submit(fan, { name: 'Tagged pending', tokenId: token.id, withoutVideo: true });
    await waitFor(
      async () => {
        const res = await seeder.api(`/api/tagged-videos/${streamer.id}`, { cookie: streamer.cookie });
        const { videos } = (await res.json()) as { videos: Array<{ name: string; status: string }> };
        return videos.length === 2 && videos.some((v) => v.name === 'Tagged highlight' && v.status === 'approved') ? true : undefined;
      },
      20_000,
      'both tagged clips, one approved',
    );
  }, 300_000);

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
  });

  const me = async (): Promise<Me> => (await (await seeder.api('/api/user/me', { cookie: streamer.cookie })).json()) as Me;
  /** identity mirrors the social service's stream state a moment after a call (ADR 0021). */
  const meBecomes = (what: string, test: (m: Me) => boolean) => waitFor(async () => (test(await me()) ? true : undefined), 10_000, what);

  const shot = async (page: Page, name: string) => {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `streamer-dashboard-${name}.png`), fullPage: true });
  };

  async function openDashboard(viewport: { width: number; height: number }, search = ''): Promise<Page> {
    await signInBrowser(browser.context, platform.url, streamer.sid);
    const page = await browser.newPage();
    await page.setViewportSize(viewport);
    await openSite(page, `${platform.url}/clippers/dashboard${search}`);
    await page.getByRole('heading', { level: 1, name: streamer.displayName }).waitFor();
    return page;
  }

  const summaryCard = (main: Locator, title: string) =>
    main.getByRole('listitem').filter({ has: main.page().getByRole('heading', { level: 3, name: title, exact: true }) });
  const tab = (main: Locator, name: string) => main.getByRole('tab', { name, exact: true });

  it('signed out: the dashboard sends the browser to /login', async () => {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await page.goto(`${platform.url}/clippers/dashboard`);
    await page.waitForURL(`${platform.url}/login`);
  });

  it('desktop: header, summary cards, the tabs, the stream time, Go Live and Go Offline', async () => {
    const page = await openDashboard(DESKTOP);
    const main = page.locator('main');
    const header = main.getByRole('region', { name: streamer.displayName });
    await header.getByText(`@${streamer.handle}`).waitFor();
    await header.getByRole('button', { name: 'Logout' }).waitFor();
    // A streamer sees no clipper parts.
    expect(await main.getByText(/Welcome back/).count()).toBe(0);

    await summaryCard(main, 'Followers').getByText('1', { exact: true }).waitFor();
    await summaryCard(main, 'Tagged Videos').getByText('2', { exact: true }).waitFor();
    await summaryCard(main, 'Live Status').getByText('Offline', { exact: true }).waitFor();
    expect(await main.getByRole('tablist', { name: 'Dashboard sections' }).getByRole('tab').allTextContents()).toEqual([
      'Tagged Videos',
      'Followers',
      'Streaming',
      'CPM Campaigns',
      'Profile',
    ]);

    // Tagged videos (the default tab): the approved clip highlighted with its poster, the pending one secondary.
    expect(await tab(main, 'Tagged Videos').getAttribute('aria-selected')).toBe('true');
    const videos = main.getByRole('list', { name: 'Tagged videos' });
    const highlight = videos.getByRole('listitem').filter({ hasText: 'Tagged highlight' });
    await highlight.getByText('Approved', { exact: true }).waitFor();
    expect(await highlight.getByText('Approved', { exact: true }).getAttribute('class')).toContain('clip-badge--success');
    await highlight.getByText('0 views').waitFor();
    await highlight.getByText('0 likes').waitFor();
    const poster = highlight.locator('img');
    // The page's own view of the image (the lib of these tests has no DOM types): loaded, with pixels.
    await waitFor(
      async () =>
        (await poster.evaluate((img) =>
          Boolean(
            (img as unknown as { complete: boolean; naturalWidth: number }).complete &&
            (img as unknown as { naturalWidth: number }).naturalWidth > 0,
          ),
        ))
          ? true
          : undefined,
      10_000,
      'the poster loaded',
    );
    const pending = videos.getByRole('listitem').filter({ hasText: 'Tagged pending' });
    expect(await pending.getByText('Pending', { exact: true }).getAttribute('class')).toContain('clip-badge--secondary');
    await shot(page, 'tagged-videos-desktop');

    // Followers: the fan, with a way to their profile.
    await tab(main, 'Followers').click();
    await page.waitForURL(/\?tab=followers$/);
    const followers = main.getByRole('list', { name: 'Followers' });
    const row = followers.getByRole('listitem').filter({ hasText: fan.displayName });
    await row.getByText(`@${fan.handle}`).waitFor();
    expect(await row.getByRole('link', { name: /^View Profile/ }).getAttribute('href')).toBe(`/clipper/${fan.id}`);
    await shot(page, 'followers-desktop');

    // Streaming: a stream time three days ahead, sent as ISO.
    await tab(main, 'Streaming').click();
    await page.waitForURL(/\?tab=streaming$/);
    const at = new Date(Date.now() + 3 * 24 * 3_600_000);
    at.setSeconds(0, 0);
    const picker = main.getByLabel('Next Stream Time');
    await picker.fill(localValue(at));
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/users/stream-time');
    await main.getByRole('button', { name: 'Update Stream Time' }).click();
    expect((await sent).postDataJSON()).toEqual({ streamTime: at.toISOString() });
    await toasts(page).getByText('Stream time updated!', { exact: true }).waitFor();
    await meBecomes('the stream time stored', (m) => m.nextStreamTime === at.toISOString());
    await main.getByText('Scheduled for', { exact: false }).waitFor();

    // Go Live: the one follower is told; the button becomes Go Offline and the card says Live.
    await main.getByRole('button', { name: 'Go Live' }).click();
    await expectToast(page, "You're now live!", '1 follower will be notified.');
    await main.getByRole('button', { name: 'Go Offline' }).waitFor();
    await summaryCard(main, 'Live Status').getByText('Live', { exact: true }).waitFor();
    await meBecomes('live', (m) => m.isLive === 'true');
    await shot(page, 'streaming-live-desktop');

    await main.getByRole('button', { name: 'Go Offline' }).click();
    await expectToast(page, "You're now offline", 'Your live status has been updated.');
    await main.getByRole('button', { name: 'Go Live' }).waitFor();
    await summaryCard(main, 'Live Status').getByText('Offline', { exact: true }).waitFor();
    await meBecomes('offline', (m) => m.isLive === 'false');
    await shot(page, 'streaming-desktop');

    // Clearing the picker clears the time (null).
    await picker.fill('');
    const cleared = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/users/stream-time');
    await main.getByRole('button', { name: 'Update Stream Time' }).click();
    expect((await cleared).postDataJSON()).toEqual({ streamTime: null });
    await main.getByText('No stream scheduled.', { exact: false }).waitFor();
    await meBecomes('the stream time cleared', (m) => m.nextStreamTime === null);
  });

  it('desktop: a campaign below 100,000 views is refused in the form; a valid one is sent, toasted and listed pending', async () => {
    const page = await openDashboard(DESKTOP, '?tab=cpm-campaigns');
    const main = page.locator('main');
    await main.getByText('$5 per 1,000 views', { exact: true }).waitFor();
    await main.getByText('$500 (100K views)', { exact: true }).waitFor();
    await main.getByText('10,000+ crypto traders', { exact: true }).waitFor();
    await main.getByText('No campaigns yet').waitFor();
    const form = main.getByRole('form', { name: 'Submit a campaign' });
    const posts: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/cpm-campaigns') posts.push(r.postDataJSON());
    });

    await form.getByLabel('Campaign Title').fill('Launch week push');
    await form.getByLabel('Description').fill('Clips of the launch stream, posted on X during launch week.');
    // Below the minimum: the budget follows ($250), both fields say why, nothing is sent.
    await form.getByLabel('Target Views').fill('50000');
    expect(await form.getByLabel('Budget (USD)').inputValue()).toBe('250');
    await form.getByRole('button', { name: 'Submit Campaign' }).click();
    await form.getByText('Minimum 100,000 views required (minimum $500 budget)').waitFor();
    await form.getByText('Minimum budget is $500').waitFor();
    expect(posts).toEqual([]);
    await shot(page, 'campaign-refused-desktop');

    // A budget typed fills the views: $1,000 buys 200,000.
    await form.getByLabel('Budget (USD)').fill('1000');
    expect(await form.getByLabel('Target Views').inputValue()).toBe('200000');
    await form.getByRole('button', { name: 'Submit Campaign' }).click();
    await toasts(page).getByText('Campaign submitted! Our team will review it within 24 hours.', { exact: true }).waitFor();
    expect(posts).toEqual([
      {
        title: 'Launch week push',
        description: 'Clips of the launch stream, posted on X during launch week.',
        targetViews: 200_000,
        budgetAmount: 1000,
        contentLink: null,
      },
    ]);
    expect(await form.getByLabel('Campaign Title').inputValue()).toBe('');

    const listed = main.getByRole('list', { name: 'Your campaigns' }).getByRole('listitem').filter({ hasText: 'Launch week push' });
    await listed.getByText('Pending', { exact: true }).waitFor();
    await listed.getByText('200,000 views · $1,000', { exact: false }).waitFor();
    await listed.getByText('0 of 200,000 views delivered').waitFor();
    const stored = (await (await seeder.api('/api/cpm-campaigns', { cookie: streamer.cookie })).json()) as {
      campaigns: Array<{ title: string; status: string }>;
    };
    expect(stored.campaigns.map((c) => [c.title, c.status])).toEqual([['Launch week push', 'pending']]);
    await shot(page, 'campaigns-desktop');
  });

  it('desktop: the streaming tab lists the streamer’s tokens and adds one', async () => {
    const page = await openDashboard(DESKTOP, '?tab=streaming');
    const main = page.locator('main');
    const tokens = main.getByRole('list', { name: 'Your tokens' });
    // The token made at sign-up.
    await tokens.getByRole('link', { name: TOKEN_LINK }).waitFor();
    await main.getByRole('button', { name: 'Add Token' }).click();
    const form = main.getByRole('form', { name: 'Add a token' });
    await form.getByLabel('PumpFun Link').fill('not a link');
    await form.getByRole('button', { name: 'Create Token' }).click();
    await form.getByText('Token name is required').waitFor();
    await form.getByText('Please enter a valid PumpFun link').waitFor();
    await form.getByLabel('Token Name').fill('DASH');
    await form.getByLabel('PumpFun Link').fill('https://pump.fun/coin/dash');
    await form.getByLabel('Description (optional)').fill('A token added from the dashboard');
    await form.getByRole('button', { name: 'Create Token' }).click();
    await toasts(page).getByText('Token created', { exact: true }).waitFor();
    const added = tokens.getByRole('listitem').filter({ has: page.getByText('DASH', { exact: true }) });
    await added.getByText('Active', { exact: true }).waitFor();
    const mine = (await (await seeder.api('/api/tokens/mine', { cookie: streamer.cookie })).json()) as Array<{
      name: string;
      isActive: string;
    }>;
    expect(mine.some((t) => t.name === 'DASH' && t.isActive === 'true')).toBe(true);
    await shot(page, 'tokens-desktop');
  });

  it('phone: the dashboard fits the screen, every tab works, and Logout goes to /login', async () => {
    const page = await openDashboard(PHONE);
    const main = page.locator('main');
    await main.getByRole('list', { name: 'Tagged videos' }).getByText('Tagged highlight').waitFor();
    await summaryCard(main, 'Followers').getByText('1', { exact: true }).waitFor();
    const fits = () => page.evaluate('document.documentElement.scrollWidth <= innerWidth') as Promise<boolean>;
    expect(await fits()).toBe(true);
    await shot(page, 'tagged-videos-phone');

    await tab(main, 'Followers').click();
    await main.getByRole('list', { name: 'Followers' }).getByText(`@${fan.handle}`).waitFor();
    expect(await fits()).toBe(true);
    await shot(page, 'followers-phone');

    await tab(main, 'Streaming').click();
    await main.getByRole('button', { name: 'Go Live' }).click();
    await expectToast(page, "You're now live!", '1 follower will be notified.');
    await main.getByRole('button', { name: 'Go Offline' }).waitFor();
    expect(await fits()).toBe(true);
    await shot(page, 'streaming-phone');
    await main.getByRole('button', { name: 'Go Offline' }).click();
    await expectToast(page, "You're now offline", 'Your live status has been updated.');

    await main.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${platform.url}/login`);
    expect((await seeder.api('/api/user/me', { cookie: streamer.cookie })).status).toBe(401);
  });
  describe('followers a page at a time, and the profile tab (spec 02 §2.3, §2.6)', () => {
    /** A streamer of their own per viewport, so the others' counts above stay as they are. */
    const busy: Record<string, Account> = {};
    let follower: Account;

    beforeAll(async () => {
      follower = await seeder.signUp('clipper');
      for (const name of ['phone', 'desktop']) {
        const own = await seeder.signUp('streamer');
        busy[name] = own;
        // Fifty older followers, written into social's tables as its follows are (signing up fifty accounts
        // through the API would cost this file a minute), then one real follow through the gateway, the newest.
        for (let i = 0; i < 50; i += 1) {
          const id = randomUUID();
          await platform.socialDb.query(
            `INSERT INTO people (id, role, display_name, twitter_username, profile_image_url, source_updated_at)
             VALUES ($1, 'clipper', $2, $3, NULL, now())`,
            [id, `Older fan ${i + 1}`, `older_${name}_${i + 1}`],
          );
          await platform.socialDb.query(
            `INSERT INTO followers (id, follower_id, following_id, created_at) VALUES ($1, $2, $3, now() - make_interval(mins => $4::int))`,
            [randomUUID(), id, own.id, 60 - i],
          );
        }
        expect((await seeder.api(`/api/follow/${own.id}`, { method: 'POST', cookie: follower.cookie })).status).toBe(200);
      }
    });

    async function openAs(who: Account, viewport: { width: number; height: number }, search: string): Promise<Page> {
      await browser.context.clearCookies();
      await signInBrowser(browser.context, platform.url, who.sid);
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      await openSite(page, `${platform.url}/clippers/dashboard${search}`);
      return page;
    }

    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      it(`${name}: shows the newest 50 followers, and 'Load more followers' the rest`, async () => {
        const own = busy[name]!;
        const page = await openAs(own, viewport, '?tab=followers');
        const main = page.locator('main');
        await summaryCard(main, 'Followers').getByText('51', { exact: true }).waitFor();
        const list = main.getByRole('list', { name: 'Followers' });
        // The newest first: the real follow, then the older ones.
        await list.getByRole('listitem').first().getByText(`@${follower.handle}`).waitFor();
        expect(await list.getByRole('listitem').count()).toBe(50);
        await main.getByText('Showing the newest 50 of 51 followers.').waitFor();
        expect(await list.getByText('@older_' + name + '_1', { exact: true }).count()).toBe(0);

        const next = page.waitForResponse(
          (r) => new URL(r.url()).pathname === `/api/followers/list/${own.id}` && new URL(r.url()).searchParams.has('cursor'),
        );
        await main.getByRole('button', { name: 'Load more followers' }).click();
        expect((await next).status()).toBe(200);
        await list.getByText(`@older_${name}_1`, { exact: true }).waitFor();
        expect(await list.getByRole('listitem').count()).toBe(51);
        expect(await main.getByRole('button', { name: 'Load more followers' }).count()).toBe(0);
        expect(await main.getByText(/^Showing the newest/).count()).toBe(0);
        expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
        await shot(page, `followers-more-${name}`);
      });

      it(`${name}: the Profile tab changes the display name, picture and banner, as the public profile then shows`, async () => {
        const own = busy[name]!;
        const page = await openAs(own, viewport, '?tab=profile');
        const main = page.locator('main');
        await main.getByRole('tab', { name: 'Profile', exact: true, selected: true }).waitFor();
        // The stream time stays a streamer's to set here too.
        await main.getByRole('button', { name: 'Update Stream Time' }).waitFor();

        const newName = `Renamed ${name} ${own.handle}`.slice(0, 40);
        await main.getByLabel('Display Name').fill(newName);
        await main.getByRole('button', { name: 'Save Profile' }).click();
        await expectToast(page, 'Profile updated!', 'Your profile has been updated successfully.');
        await main.getByRole('heading', { level: 1, name: newName }).waitFor();

        const pictureSaved = page.waitForResponse(
          (r) => new URL(r.url()).pathname === '/api/user/profile-picture' && r.request().method() === 'PUT',
        );
        await main.getByLabel('Profile Picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
        expect((await pictureSaved).status()).toBe(200);
        await toasts(page).getByText('Profile updated!', { exact: true }).waitFor();
        await main.getByRole('img', { name: 'Your current profile picture' }).waitFor();

        await main.getByRole('button', { name: 'Upload Banner' }).click();
        await expectToast(page, 'No banner image selected', 'Choose a banner image first.');
        await main.getByLabel('Banner Image').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
        await main.getByRole('button', { name: 'Upload Banner' }).click();
        await toasts(page).getByText('Banner updated!', { exact: true }).waitFor();
        await main.getByRole('img', { name: 'Your current banner' }).waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
        await shot(page, `profile-${name}`);

        const me = (await (await seeder.api('/api/user/me', { cookie: own.cookie })).json()) as {
          displayName: string;
          profileImageUrl: string | null;
          bannerImageUrl: string | null;
        };
        expect(me.displayName).toBe(newName);
        expect(me.profileImageUrl).toMatch(/profile-images\//);
        expect(me.bannerImageUrl).toMatch(/banner-images\//);

        // Their public profile: the new name, picture and banner (the feed's read model follows user.updated).
        const profile = await browser.newPage();
        await profile.setViewportSize(viewport);
        await waitFor(
          async () => {
            await openSite(profile, `${platform.url}/clipper/${own.id}`);
            return (await profile.getByRole('heading', { level: 1, name: newName }).count()) > 0 ? true : undefined;
          },
          20_000,
          'the new name on the public profile',
        );
        const pictures = profile.locator('main img');
        await waitFor(
          async () => {
            const sources = await pictures.evaluateAll((imgs) =>
              imgs.map((img) => (img as unknown as { getAttribute(n: string): string | null }).getAttribute('src')),
            );
            return sources.includes(me.profileImageUrl) && sources.includes(me.bannerImageUrl) ? true : undefined;
          },
          20_000,
          'the new picture and banner on the public profile',
        );
        await shot(profile, `public-profile-${name}`);
      });
    }
  });

  describe('a streamer tagged on more clips than one page holds', () => {
    let busy: Account;
    const TAGGED = 53;

    beforeAll(async () => {
      busy = await seeder.signUp('streamer');
      // Written straight into the feed's read model: the page's paging is what this proves, and 53 clips
      // through the pipeline would take a daily limit of 3 per clipper and minutes of transcoding.
      await platform.feedDb.query(
        `INSERT INTO rm.clips (id, user_id, name, url, external_id, author_handle, streamer_id, tagged_user_id, status, added_to_feed,
           video_state, has_video, approved_at, created_at, source_updated_at, visible)
         SELECT gen_random_uuid(), $1, 'Bulk clip ' || n, 'https://x.com/a/status/' || n, n::text, 'a', $2, $2, 'approved', false,
           'none', false, now() - interval '1 day', now() - n * interval '1 second', now(), false
         FROM generate_series(1, $3::int) AS n`,
        [fan.id, busy.id, TAGGED],
      );
    });

    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`${device}: the summary card shows the total, and Load more shows the clips past the first 50`, async () => {
        await signInBrowser(browser.context, platform.url, busy.sid);
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        await openSite(page, `${platform.url}/clippers/dashboard`);
        await page.getByRole('heading', { level: 1, name: busy.displayName }).waitFor();
        const main = page.locator('main');
        await summaryCard(main, 'Tagged Videos').getByText(String(TAGGED), { exact: true }).waitFor();
        expect(await summaryCard(main, 'Tagged Videos').getByText(/\+/).count()).toBe(0);
        const videos = main.getByRole('list', { name: 'Tagged videos' }).getByRole('listitem');
        await main.getByText(`Showing 50 of ${TAGGED}`).waitFor();
        expect(await videos.count()).toBe(50);
        await main.getByRole('button', { name: 'Load more videos' }).click();
        await main.getByText(`Showing ${TAGGED} of ${TAGGED}`).waitFor();
        expect(await videos.count()).toBe(TAGGED);
        // The oldest clip, on the second page; and no more to load.
        await videos.filter({ hasText: `Bulk clip ${TAGGED}` }).waitFor();
        expect(await main.getByRole('button', { name: 'Load more videos' }).count()).toBe(0);
        expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
      });
    }
  });
});
