// /leaderboard in headless Chromium against the real platform, on a phone and a desktop. Two clippers
// first (posts with processed videos from the media worker, and posts without a video, all approved):
// the podium says there are not enough creators yet. Then a third clipper: the podium shows the
// gateway's top 3 in its order with their mindshare, the stats card shows the gateway's figures, and the
// posts list puts the uploaded videos first (highlighted as the top 3, with the HD badge, playable) and
// the others after them with 'View on X'; their embed lookups (a route the gateway does not have yet)
// fail quietly, once each. Submit Your Post goes to /submit.
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { openSite, toasts } from './support/site.js';

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;

/** The fields of the gateway's answers this test compares the page with. */
interface ApiPost {
  id: string;
  name: string;
  hasVideo: 'true' | 'false';
  views: number;
  videoUrl: string | null;
}
interface ApiUser {
  userId: string;
  user: { twitterUsername: string | null };
  totalViews: number;
  mindshare: number;
}
interface ApiStats {
  totalPosts: number;
  activeUsers: number;
  totalViews: number;
}

/** What the test reads of the page's <video> (the tests are type-checked without the DOM's types). */
interface PlayableVideo {
  readyState: number;
  currentSrc: string;
  error: { code: number; message: string } | null;
  addEventListener(type: string, listener: () => void): void;
}

/** The page's mindshare: at most two decimals, then '%'. */
const mindshare = (percent: number) => `${Number(percent.toFixed(2))}%`;
/** Below 1,000 a count shows as it is (abbreviateNumber); the seeded figures stay far below. */
const small = (n: number) => {
  expect(n).toBeLessThan(1000);
  return String(n);
};

describe('the X leaderboard', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let a: Account;
  let b: Account;
  let c: Account;
  const videoNames: string[] = [];

  const json = async <T>(path: string): Promise<T> => (await (await seeder.api(path)).json()) as T;
  /** Submits a post without a video and approves it (not into the feed: the feed is for videos). */
  const approvedWithoutVideo = async (who: Account, name: string) => {
    const id = await seeder.submit(who, { name, withoutVideo: true });
    await seeder.moderate(id, 'approve');
  };
  const postsByApi = (count: number) =>
    waitFor(
      async () => {
        const posts = await json<ApiPost[]>('/api/leaderboard/posts');
        return posts.length === count ? true : undefined;
      },
      30_000,
      `${count} approved posts on the leaderboard`,
    );

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    a = await seeder.signUp('clipper');
    b = await seeder.signUp('clipper');
    await seeder.publish(a, 2, { name: 'Video of A' });
    await seeder.publish(b, 1, { name: 'Video of B' });
    videoNames.push('Video of A 1', 'Video of A 2', 'Video of B 1');
    await approvedWithoutVideo(a, 'Text post of A');
    await approvedWithoutVideo(b, 'Text post of B');
    await postsByApi(5);
  }, 600_000);

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
  });

  const main = (page: Page) => page.locator('main');
  const cards = (page: Page) => main(page).getByTestId('leaderboard-post');
  const podium = (page: Page) => main(page).getByRole('region', { name: 'TOP CREATORS' });
  const stats = (page: Page) => main(page).getByRole('region', { name: 'Leaderboard Stats' });

  /** Opens /leaderboard at this size, recording its embed lookups and the console's errors. */
  async function openLeaderboard(viewport: { width: number; height: number }) {
    const page = await browser.newPage();
    const oembed: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/twitter/oembed') oembed.push(url.searchParams.get('url') ?? '');
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.setViewportSize(viewport);
    await openSite(page, `${platform.url}/leaderboard`);
    await expect(page.title()).resolves.toBe('X Leaderboard');
    await main(page).getByRole('heading', { level: 1, name: 'X Leaderboard' }).waitFor();
    return { page, oembed, consoleErrors };
  }

  describe.each(VIEWPORTS)('on a %s, with two creators', (_, viewport) => {
    it('says there are not enough creators for the podium, and lists the posts', async () => {
      expect(await json<ApiUser[]>('/api/leaderboard/users')).toHaveLength(2);
      const { page } = await openLeaderboard(viewport);
      await podium(page).getByText('Not enough creators yet. Be one of the first!').waitFor();
      expect(await podium(page).getByRole('link').count()).toBe(0);
      await cards(page).nth(4).waitFor();
      expect(await cards(page).count()).toBe(5);
    });
  });

  describe('with three creators', () => {
    beforeAll(async () => {
      c = await seeder.signUp('clipper');
      await approvedWithoutVideo(c, 'Text post of C');
      await postsByApi(6);
      await waitFor(
        async () => ((await json<ApiUser[]>('/api/leaderboard/users')).length === 3 ? true : undefined),
        30_000,
        'three creators',
      );
    }, 180_000);

    describe.each(VIEWPORTS)('on a %s', (_, viewport) => {
      it('the podium shows the gateway’s top 3 in its order, with handles, views and mindshare', async () => {
        const users = await json<ApiUser[]>('/api/leaderboard/users');
        expect(users.map((u) => u.userId).sort()).toEqual([a.id, b.id, c.id].sort());
        const { page } = await openLeaderboard(viewport);
        const places = podium(page).getByRole('link');
        await places.nth(2).waitFor();
        expect(await places.count()).toBe(3);
        for (const [i, u] of users.entries()) {
          const place = places.nth(i);
          expect(await place.getAttribute('href')).toBe(`/clipper/${u.userId}`);
          const handle = [a, b, c].find((who) => who.id === u.userId)!.handle;
          expect(u.user.twitterUsername).toBe(handle);
          expect(await place.locator('.clipit-leaderboard-place__handle').textContent()).toBe(`@${handle}`);
          expect(await place.getByText(`Rank #${i + 1}`, { exact: true }).count()).toBe(1);
          expect(await place.getByText(`${small(u.totalViews)} views`, { exact: true }).count()).toBe(1);
          expect(await place.getByText(`${mindshare(u.mindshare)} mindshare`, { exact: true }).count()).toBe(1);
        }
      });

      it('the stats card shows the gateway’s figures and the competition bar at 85', async () => {
        const figures = await json<ApiStats>('/api/leaderboard/stats');
        expect(figures.totalPosts).toBe(6);
        expect(figures.activeUsers).toBe(3);
        const { page } = await openLeaderboard(viewport);
        const figure = (label: string) => stats(page).locator(`dt:text-is("${label}") + dd`);
        await figure('Total Posts').getByText(small(figures.totalPosts), { exact: true }).waitFor();
        expect(await figure('Active Users').textContent()).toBe(small(figures.activeUsers));
        expect(await figure('Total Views').textContent()).toBe(small(figures.totalViews));
        const bar = stats(page).getByRole('progressbar', { name: 'Competition Level: High' });
        expect(await bar.getAttribute('aria-valuenow')).toBe('85');
        // The screenshot of this test shows the light theme; the next pages open dark again.
        await page.getByRole('button', { name: 'Switch to light theme' }).click();
        await page.locator('html.light').waitFor({ state: 'attached' });
        await page.evaluate("localStorage.setItem('clip-theme', 'dark')");
      });

      it('lists uploaded videos first (the highlighted top 3, HD, playable), then the others with View on X; embed lookups fail quietly', async () => {
        const posts = await json<ApiPost[]>('/api/leaderboard/posts');
        expect(posts).toHaveLength(6);
        const { page, oembed, consoleErrors } = await openLeaderboard(viewport);
        await cards(page).nth(5).waitFor();
        expect(await cards(page).count()).toBe(6);

        const titles = (await cards(page).locator('h3').allTextContents()).map((t) => t.replace(/ \(new tab\)$/, ''));
        expect(titles.slice(0, 3).sort()).toEqual([...videoNames].sort());
        expect(titles.slice(3).sort()).toEqual(['Text post of A', 'Text post of B', 'Text post of C']);
        // Views are 0 until X metrics exist: among equals the page keeps the gateway's order.
        expect(titles).toEqual(posts.map((p) => p.name));
        for (const [i, name] of titles.entries()) {
          const card = cards(page).nth(i);
          const top = i < 3;
          expect((await card.getAttribute('class'))?.split(' ').includes('clipit-leaderboard-post--top')).toBe(top);
          expect(await card.getByText(`Rank #${i + 1}`, { exact: true }).count()).toBe(1);
          expect(await card.getByText('Live', { exact: true }).isVisible()).toBe(true);
          expect(await card.getByText('HD', { exact: true }).count()).toBe(top ? 1 : 0);
          expect(await card.getByRole('link', { name: 'View on X (new tab)' }).count()).toBe(top ? 0 : 1);
          expect(await card.getByRole('button', { name: `Play ${name}` }).count()).toBe(top ? 1 : 0);
          const owner = posts.find((p) => p.name === name)!;
          expect(owner.hasVideo).toBe(top ? 'true' : 'false');
        }

        // The first video plays where it is.
        const first = cards(page).first();
        await first.getByRole('button', { name: `Play ${titles[0]!}` }).click();
        const video = first.locator('video');
        // Focus moves from the play button to the player that replaced it.
        expect(await page.evaluate('document.activeElement && document.activeElement.tagName')).toBe('VIDEO');
        expect(await video.getAttribute('poster')).toMatch(/\/media\/.+/);
        const played = await video.evaluate(
          (element) =>
            new Promise<{ readyState: number; src: string }>((resolve, reject) => {
              const v = element as unknown as PlayableVideo;
              const done = () => resolve({ readyState: v.readyState, src: v.currentSrc });
              if (v.readyState >= 2) return done();
              const timer = setTimeout(() => reject(new Error(`no data after 20 s (readyState ${v.readyState})`)), 20_000);
              v.addEventListener('loadeddata', () => {
                clearTimeout(timer);
                done();
              });
              v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code ?? '?'}`)));
            }),
        );
        expect(played.readyState).toBeGreaterThanOrEqual(2);
        expect(played.src).toMatch(/\/media\/videos\/.+\.mp4$/);

        // Every post without a video asks for its embed once (when near the screen), and failing is quiet.
        await cards(page).last().scrollIntoViewIfNeeded();
        const textPostUrls = await Promise.all(
          [3, 4, 5].map((i) => cards(page).nth(i).getByRole('link', { name: 'View on X (new tab)' }).getAttribute('href')),
        );
        await waitFor(async () => (oembed.length >= 3 ? true : undefined), 10_000, 'three embed lookups');
        await page.waitForTimeout(1500);
        expect([...oembed].sort()).toEqual([...textPostUrls].sort());
        expect(await toasts(page).locator('li').count()).toBe(0);
        expect(consoleErrors.filter((text) => !/Failed to load resource/.test(text))).toEqual([]);
        await first.scrollIntoViewIfNeeded();
      });

      it('Submit Your Post goes to /submit', async () => {
        const { page } = await openLeaderboard(viewport);
        await main(page).getByRole('link', { name: 'Submit Your Post' }).click();
        await page.waitForURL(`${platform.url}/submit`);
      });
    });
  });
});
