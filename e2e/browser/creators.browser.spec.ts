// /discover and /clipper/:userId in headless Chromium against the real platform, on a phone and a
// desktop: three clippers with 3, 2 and 1 published clips (and a fourth, the viewer, with none), two
// streamers; the list's counts, search, tabs and sorts; following from the list and from a profile (and
// a signed-out visitor sent to /login); a profile showing only its approved videos; an unknown profile.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@clipit/testing';
import type { Locator, Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { signInBrowser, toasts } from './support/site.js';

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

/**
 * Each clip's X views. The platform has no X metrics yet (ADR 0022: 0 until they arrive), so the test
 * writes them into the feed's clip rows and recomputes the owners' figures with the projection's own rule
 * (sum of approved clips' views): enough to tell the three sorts apart.
 */
/** 'cl_ab12' → 'cL_Ab12': what a person types without minding the case. */
const mixedCase = (text: string) => Array.from(text, (ch, i) => (i % 2 ? ch.toUpperCase() : ch.toLowerCase())).join('');

const VIEWS_PER_CLIP = { a: 100, b: 900, c: 500 } as const;

describe('discover and clipper profiles', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let a: Account; // 3 clips, 300 views, avg 100
  let b: Account; // 1 clip, 900 views, avg 900
  let c: Account; // 2 clips, 1000 views, avg 500
  let viewer: Account; // a clipper with no clips
  let s1: Account;
  let s2: Account;
  let pointsOfA = 0;
  const pendingName = 'Still under review';
  const rejectedName = 'Turned down';

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    [a, b, c, viewer, s1, s2] = [
      await seeder.signUp('clipper'),
      await seeder.signUp('clipper'),
      await seeder.signUp('clipper'),
      await seeder.signUp('clipper'),
      await seeder.signUp('streamer'),
      await seeder.signUp('streamer'),
    ];
    await seeder.publish(a, 3, { name: 'Highlight' });
    await seeder.publish(b, 1, { name: 'Solo' });
    await seeder.publish(c, 2, { name: 'Pair' });
    await seeder.submit(a, { name: pendingName, withoutVideo: true });
    const rejected = await seeder.submit(a, { name: rejectedName, withoutVideo: true });
    await seeder.moderate(rejected, 'reject', { reason: 'Missing watermark' });

    // The pending and rejected submissions reach the feed's read model (every submission counts in Total Clips).
    await waitFor(
      async () => {
        const { rows } = await platform.feedDb.query<{ n: string }>('SELECT count(*) AS n FROM rm.clips WHERE user_id = $1', [a.id]);
        return Number(rows[0]!.n) === 5 ? true : undefined;
      },
      30_000,
      'five submissions of the first clipper in the feed',
    );
    for (const [person, views] of [
      [a, VIEWS_PER_CLIP.a],
      [b, VIEWS_PER_CLIP.b],
      [c, VIEWS_PER_CLIP.c],
    ] as const) {
      await platform.feedDb.query(`UPDATE rm.clips SET views = $2 WHERE user_id = $1 AND status = 'approved'`, [person.id, views]);
      await platform.feedDb.query(
        `UPDATE rm.people SET total_views = (SELECT COALESCE(sum(views), 0) FROM rm.clips WHERE user_id = $1 AND status = 'approved') WHERE id = $1`,
        [person.id],
      );
    }
    // Rewards has taken the first clipper's decisions: the rejection lowers the points (spec 02 §6), and rewards may
    // take it well after the feed has (behind each clip's fingerprint, matches and held earning: the same video).
    await waitFor(
      async () => {
        const { rows } = await platform.rewardsDb.query<{ approved: number; rejected: number }>(
          `SELECT count(*) FILTER (WHERE status = 'approved')::int AS approved, count(*) FILTER (WHERE status = 'rejected')::int AS rejected
             FROM submissions WHERE user_id = $1`,
          [a.id],
        );
        return rows[0]!.approved === 3 && rows[0]!.rejected === 1 ? true : undefined;
      },
      60_000,
      'rewards to take the first clipper’s three approvals and one rejection',
    );
    // Rewards' standing of the first clipper reaches the feed (rewards.standing-changed): the points the stats route has.
    // Both are read again each time: rewards may still be taking the last approvals (each changes the points), and
    // the list must end up showing what rewards ends up with.
    await waitFor(
      async () => {
        pointsOfA = ((await (await seeder.api(`/api/clipper/stats/${a.id}`)).json()) as { points: number }).points;
        const creators = (await (await seeder.api('/api/creators/clippers')).json()) as Array<{
          userId: string;
          clipPoints: number | null;
        }>;
        return pointsOfA > 0 && creators.find((x) => x.userId === a.id)?.clipPoints === pointsOfA ? true : undefined;
      },
      30_000,
      'the first clipper’s Clip Points on the creators list, as rewards has them',
    );
    expect(pointsOfA).toBeLessThan(1000);
  }, 600_000);

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
  });

  const cards = (page: Page) => page.locator('main').getByTestId('creator-card');
  const handlesShown = (page: Page) => cards(page).locator('.clipit-discover-card__handle').allTextContents();
  const cardOf = (page: Page, who: Account) => cards(page).filter({ has: page.getByText(`@${who.handle}`, { exact: true }) });
  const figure = (card: Locator, label: string) => card.locator(`dt:text-is("${label}") + dd`);
  const followersByApi = async (who: Account) => ((await (await seeder.api(`/api/followers/${who.id}`)).json()) as { count: number }).count;

  /**
   * Goes to `url` once the public remote, which owns both pages, is loaded. Not openSite: the shell
   * loads the other remotes only when the browser is idle (ADR 0023), and these pages need none of them.
   */
  async function openSite(page: Page, url: string) {
    await page.goto(url);
    await page.locator('meta[name="clipit-remote:public"]').waitFor({ state: 'attached' });
  }
  async function openPage(page: Page, viewport: { width: number; height: number }, path: string) {
    await page.setViewportSize(viewport);
    await openSite(page, `${platform.url}${path}`);
  }
  /** Nothing wider than the window: no sideways scrolling on a phone. */
  const expectNoOverflow = async (page: Page) =>
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);

  describe.each(VIEWPORTS)('on a %s', (_, viewport) => {
    it('lists the clippers with their figures and Clip Points, searches by handle in any case, and switches tabs', async () => {
      await browser.context.clearCookies();
      const page = await browser.newPage();
      await openPage(page, viewport, '/discover');
      await expect(page.title()).resolves.toBe('Discover Creators');
      const main = page.locator('main');
      await main.getByRole('heading', { level: 1, name: 'Discover Creators' }).waitFor();
      await main.getByRole('heading', { level: 2, name: 'Active Clippers (4)' }).waitFor();
      expect(await handlesShown(page)).toEqual([a, c, b, viewer].map((p) => `@${p.handle}`));
      await expectNoOverflow(page);
      const first = cardOf(page, a);
      expect(await figure(first, 'Clips').textContent()).toBe('3');
      expect(await figure(first, 'Views').textContent()).toBe('300');
      expect(await figure(first, 'Avg Views').textContent()).toBe('100');
      expect(await figure(first, 'Followers').textContent()).toBe('0');
      // Clip Points: what rewards reports for the clipper (the stats route's points), once it has.
      expect(await figure(first, 'Clip Points').textContent()).toBe(String(pointsOfA));
      // A clipper rewards knows nothing of yet (no clip): a dash, and words for screen readers.
      expect(await figure(cardOf(page, viewer), 'Clip Points').textContent()).toBe('—not yet reported');
      expect(await first.getByRole('img', { name: 'Verified' }).count()).toBe(1);
      expect(await first.getByRole('link', { name: 'View Profile' }).getAttribute('href')).toBe(`/clipper/${a.id}`);

      await main.getByRole('searchbox', { name: 'Search by handle' }).fill(mixedCase(b.handle));
      await main.getByRole('heading', { level: 2, name: 'Active Clippers (1)' }).waitFor();
      expect(await handlesShown(page)).toEqual([`@${b.handle}`]);
      await main.getByRole('searchbox', { name: 'Search by handle' }).fill('NoSuchHandle');
      await main.getByText('No clippers found').waitFor();
      await main.getByText('Try adjusting your search query').waitFor();
      await main.getByRole('searchbox', { name: 'Search by handle' }).fill('');

      await main.getByRole('tab', { name: 'Streamers' }).click();
      await page.waitForURL(`${platform.url}/discover?tab=streamers`);
      await main.getByRole('heading', { level: 2, name: 'Active Streamers (2)' }).waitFor();
      expect((await handlesShown(page)).sort()).toEqual([`@${s1.handle}`, `@${s2.handle}`].sort());
      expect(await main.getByText('Clip Points').count()).toBe(0);
      expect(await cards(page).getByRole('button', { name: 'Follow' }).count()).toBe(2);

      await openSite(page, `${platform.url}/discover?tab=Streamers`);
      await main.getByRole('heading', { level: 2, name: 'Active Streamers (2)' }).waitFor();
      expect(await main.getByRole('tab', { name: 'Streamers' }).getAttribute('aria-selected')).toBe('true');
      await main.getByRole('tab', { name: 'Clippers' }).click();
      await page.waitForURL(`${platform.url}/discover?tab=clippers`);
      await main.getByRole('heading', { level: 2, name: 'Active Clippers (4)' }).waitFor();
    });

    it('sorts by most clips, most views and highest average views', async () => {
      const page = await browser.newPage();
      await openPage(page, viewport, '/discover');
      const main = page.locator('main');
      await main.getByRole('heading', { level: 2, name: 'Active Clippers (4)' }).waitFor();
      const sort = main.getByRole('combobox', { name: 'Sort by' });
      expect(await sort.inputValue()).toBe('clips');
      expect(await handlesShown(page)).toEqual([a, c, b, viewer].map((p) => `@${p.handle}`));
      await sort.selectOption({ label: 'Most Views' });
      expect(await handlesShown(page)).toEqual([c, b, a, viewer].map((p) => `@${p.handle}`));
      await sort.selectOption({ label: 'Highest Avg Views' });
      expect(await handlesShown(page)).toEqual([b, c, a, viewer].map((p) => `@${p.handle}`));
      await sort.selectOption({ label: 'Most Clips' });
      expect(await handlesShown(page)).toEqual([a, c, b, viewer].map((p) => `@${p.handle}`));
    });

    it('a clipper’s profile shows the stats and only the approved videos, with durations and links to X', async () => {
      const page = await browser.newPage();
      await openPage(page, viewport, '/discover');
      await cardOf(page, a).getByRole('link', { name: 'View Profile' }).click();
      await page.waitForURL(`${platform.url}/clipper/${a.id}`);
      const main = page.locator('main');
      await main.getByRole('heading', { level: 1, name: a.displayName }).waitFor();
      await main.getByText(`@${a.handle}`, { exact: true }).waitFor();
      const stat = (label: string) => main.locator(`.clipit-profile-stats dt:text-is("${label}") + dd`).textContent();
      expect(await stat('Total Clips')).toBe('5');
      expect(await stat('Approved')).toBe('3');
      expect(await stat('Total Views')).toBe('300');
      expect(await stat('Avg Views')).toBe('100');
      expect(await main.getByRole('button', { name: 'Follow' }).count()).toBe(0);

      const videos = main.locator('.clipit-profile-clip');
      expect(await videos.count()).toBe(3);
      await expectNoOverflow(page);
      expect((await videos.locator('h3').allTextContents()).sort()).toEqual(['Highlight 1', 'Highlight 2', 'Highlight 3']);
      expect(await main.getByText(pendingName).count()).toBe(0);
      expect(await main.getByText(rejectedName).count()).toBe(0);
      for (let i = 0; i < 3; i += 1) {
        const card = videos.nth(i);
        // The synthesized clip is 3 s long.
        expect(await card.locator('.clipit-profile-clip__duration').textContent()).toBe('Duration 0:03');
        expect(await card.locator('video').getAttribute('preload')).toBe('none');
        expect(await card.getByText('100 views').count()).toBe(1);
        const link = card.getByRole('link', { name: 'View on Twitter' });
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('href')).toMatch(new RegExp(`^https://x\\.com/${a.handle}/status/\\d+$`));
      }
    });

    it('an unknown profile says Clipper not found and leads back to Discover', async () => {
      const page = await browser.newPage();
      await openPage(page, viewport, '/clipper/00000000-0000-4000-8000-000000000000');
      const main = page.locator('main');
      await main.getByRole('heading', { level: 1, name: 'Clipper not found' }).waitFor();
      await main.getByRole('link', { name: 'Back to Discover' }).click();
      await page.waitForURL(`${platform.url}/discover`);
      await main.getByRole('heading', { level: 2, name: 'Active Clippers (4)' }).waitFor();
    });

    it('a signed-out visitor pressing Follow is sent to /login', async () => {
      await browser.context.clearCookies();
      const page = await browser.newPage();
      await openPage(page, viewport, '/discover?tab=streamers');
      const follow = cardOf(page, s2).getByRole('button', { name: 'Follow' });
      await follow.click();
      await page.waitForURL(`${platform.url}/login`);
      expect(await followersByApi(s2)).toBe(0);
    });
  });

  it('a signed-in viewer follows a streamer from Discover: Following, and the count rises (the API agrees)', async () => {
    await browser.context.clearCookies();
    await signInBrowser(browser.context, platform.url, viewer.sid);
    const page = await browser.newPage();
    await openPage(page, VIEWPORTS[1][1], '/discover?tab=streamers');
    const card = cardOf(page, s1);
    await card.waitFor();
    expect(await figure(card, 'Followers').textContent()).toBe('0');
    await card.getByRole('button', { name: 'Follow' }).click();
    await toasts(page).getByText('Following!', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Following' }).waitFor();
    expect(await figure(card, 'Followers').textContent()).toBe('1');
    expect(await followersByApi(s1)).toBe(1);
    const state = await seeder.api(`/api/following/${s1.id}`, { cookie: viewer.cookie });
    expect(await state.json()).toEqual({ isFollowing: true });
    // The list read again later agrees (the feed's read model heard of the follow).
    await waitFor(
      async () => {
        const list = (await (await seeder.api('/api/creators/streamers')).json()) as Array<{ userId: string; followers: number }>;
        return list.find((x) => x.userId === s1.id)?.followers === 1 ? true : undefined;
      },
      15_000,
      'the creators list to count the follower',
    );
    await openSite(page, `${platform.url}/discover?tab=streamers`);
    await cardOf(page, s1).getByRole('button', { name: 'Following' }).waitFor();
    expect(await figure(cardOf(page, s1), 'Followers').textContent()).toBe('1');
  });

  it('follows and unfollows from a streamer’s profile (phone)', async () => {
    await browser.context.clearCookies();
    await signInBrowser(browser.context, platform.url, viewer.sid);
    const page = await browser.newPage();
    await openPage(page, VIEWPORTS[0][1], `/clipper/${s2.id}`);
    const main = page.locator('main');
    await main.getByRole('heading', { level: 1, name: s2.displayName }).waitFor();
    const count = main.locator('.clipit-profile-follow p');
    expect(await count.innerText()).toBe('0 followers');
    await main.getByText('No approved videos yet').waitFor();

    await main.getByRole('button', { name: 'Follow' }).click();
    await main.getByRole('button', { name: 'Following' }).waitFor();
    await toasts(page).getByText('Following!', { exact: true }).waitFor();
    expect(await count.innerText()).toBe('1 follower');
    expect(await followersByApi(s2)).toBe(1);

    await main.getByRole('button', { name: 'Following' }).click();
    await main.getByRole('button', { name: 'Follow' }).waitFor();
    await toasts(page).getByText('Unfollowed', { exact: true }).waitFor();
    expect(await count.innerText()).toBe('0 followers');
    expect(await followersByApi(s2)).toBe(0);
    const state = await seeder.api(`/api/following/${s2.id}`, { cookie: viewer.cookie });
    expect(await state.json()).toEqual({ isFollowing: false });
  });
});
