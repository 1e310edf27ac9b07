// The home page (/) and the clippers' guide (/guide) in headless Chromium against the real platform. First
// with nothing published (the empty states), then with 3 clips published the way users publish them (real
// videos processed by the media worker, approved into the feed) and tagged with a streamer whom someone
// follows: on a phone and on a desktop, the 'Live on Demand' carousel plays exactly one slide (muted, the
// current one, the only <video> holding media), next/previous/dots and swipes of more than 50 px move it
// and it wraps at both ends; Goated Clippers links to the clipper's profile; Top Streamers shows the
// multiplier rewards applies for the streamer's follower count as 'Nx' (1.1x for one follower, not the stored
// 1.00); Watch Full Video goes to /feed.
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { openSite, untilInPage } from './support/site.js';

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;
const TOKEN_LINK = 'https://pump.fun/coin/homebrowser';
const CLIPS = 3;

interface CarouselState {
  slides: number;
  /** The slide marked current (data-current), -1 when none. */
  current: number;
  /** Slides whose <video> is playing. */
  playing: number[];
  /** Slides whose <video> holds media: a src attribute, loaded data or a load under way (currentSrc outlives load()). */
  holding: number[];
  /** Whether the current slide's video is muted. */
  muted: boolean | null;
  /** The dot marked aria-current, -1 when none. */
  dot: number;
}

// In-page code is written as strings: this project type-checks without the DOM library.
const carouselState = (page: Page) =>
  page.evaluate(`(() => {
    const slides = [...document.querySelectorAll('[aria-roledescription="slide"]')];
    const videoOf = (slide) => slide.querySelector('video');
    const current = slides.findIndex((slide) => slide.dataset.current === 'true');
    const dots = [...document.querySelectorAll('button[aria-label^="Show clip"]')];
    return {
      slides: slides.length,
      current,
      playing: slides.flatMap((slide, n) => (videoOf(slide) && !videoOf(slide).paused ? [n] : [])),
      holding: slides.flatMap((slide, n) => {
        const video = videoOf(slide);
        return video && (video.getAttribute('src') || video.readyState > 0 || video.networkState === 2) ? [n] : [];
      }),
      muted: current >= 0 ? videoOf(slides[current]).muted : null,
      dot: dots.findIndex((dot) => dot.getAttribute('aria-current') === 'true'),
    };
  })()`) as Promise<CarouselState>;

/** Waits until slide `index` is current and really playing (its time moves), then checks it is the only one. */
async function expectPlaying(page: Page, index: number): Promise<void> {
  await untilInPage(
    page,
    `(() => {
    const slide = document.querySelectorAll('[aria-roledescription="slide"]')[${index}];
    const video = slide?.querySelector('video');
    return slide?.dataset.current === 'true' && Boolean(video && !video.paused && video.currentTime > 0);
  })()`,
  );
  const state = await carouselState(page);
  expect(state).toEqual({ slides: CLIPS, current: index, playing: [index], holding: [index], muted: true, dot: index });
}

/** A horizontal swipe of `dx` px across the carousel's stage, as pointer events (what a touch screen sends too). */
async function swipe(stage: Locator, dx: number): Promise<void> {
  const box = (await stage.boundingBox())!;
  const y = box.y + box.height / 2;
  const x = box.x + box.width / 2 - dx / 2;
  const init = { pointerId: 11, pointerType: 'touch', isPrimary: true, clientY: y };
  await stage.dispatchEvent('pointerdown', { ...init, clientX: x });
  await stage.dispatchEvent('pointermove', { ...init, clientX: x + dx / 2 });
  await stage.dispatchEvent('pointerup', { ...init, clientX: x + dx });
}

describe('home and guide', () => {
  const browser = useBrowser();
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('with nothing published: the hero, and empty states for the clips, the clippers and the streamers', async () => {
    const page = await browser.newPage();
    await page.setViewportSize(VIEWPORTS[0][1]);
    await openSite(page, `${platform.url}/`);
    await expect(page.title()).resolves.toBe('CLIP IT: Clip, Share, Earn');
    const main = page.locator('main');
    await main.getByRole('heading', { level: 1, name: 'CLIP • SHARE • EARN' }).waitFor();
    expect(await main.getByRole('heading', { level: 1 }).count()).toBe(1);
    const buy = main.getByRole('link', { name: 'Buy $CLIP Token (opens in a new tab)' });
    // The same page as the header's Buy $CLIP (on a phone it is in the closed drawer): the one the shell's build wrote.
    const links = JSON.parse((await page.locator('meta[name="clipit:links"]').getAttribute('content')) ?? '{}') as { buy?: string };
    expect(links.buy).toMatch(/^https:\/\//);
    expect(await buy.getAttribute('href')).toBe(links.buy);
    expect(await buy.getAttribute('target')).toBe('_blank');
    await main.getByText('No clips yet').waitFor();
    expect(await main.getByRole('link', { name: 'Submit a Clip' }).getAttribute('href')).toBe('/submit');
    await main.getByText('No streamers found').waitFor();
    await main.getByText(/No clippers yet/).waitFor();
    expect(await page.locator('video').count()).toBe(0);
  });

  it('/guide: one h1, the rules, the tiers with their requirements, and the links to sign up and submit', async () => {
    const page = await browser.newPage();
    const main = page.locator('main');
    await openSite(page, `${platform.url}/guide`);
    await main.getByRole('link', { name: 'Apply / Sign Up' }).click();
    await page.waitForURL(`${platform.url}/login`);
    await openSite(page, `${platform.url}/guide`);
    await main.getByRole('link', { name: 'Submit a Clip' }).click();
    await page.waitForURL(`${platform.url}/submit`);

    for (const [, viewport] of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await openSite(page, `${platform.url}/guide`);
      await expect(page.title()).resolves.toBe('How It Works');
      await main.getByRole('heading', { level: 1, name: 'How It Works' }).waitFor();
      expect(await main.getByRole('heading', { level: 1 }).count()).toBe(1);
      for (const name of ['Clip Rules', 'Tiers', 'Clip Points', 'Payouts'])
        expect(await main.getByRole('heading', { level: 2, name }).isVisible()).toBe(true);
      for (const name of ['Bronze', 'Silver', 'Gold', 'Diamond'])
        expect(await main.getByRole('heading', { level: 3, name }).isVisible()).toBe(true);
      const table = main.getByRole('table', { name: 'Tier requirements' });
      expect(await table.getByRole('row').allInnerTexts()).toEqual([
        expect.stringMatching(/^Tier\s+Approved total\s+Approved in last 4 weeks\s+Approval rate\s+Average views$/),
        expect.stringMatching(/^Bronze\s+0\+\s+1\+\s+50%\+\s+100\+$/),
        expect.stringMatching(/^Silver\s+10\+\s+5\+\s+70%\+\s+500\+$/),
        expect.stringMatching(/^Gold\s+25\+\s+10\+\s+80%\+\s+1500\+$/),
      ]);
      // The table fits the screen: no sideways scrolling on a phone.
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await main.getByText('Clips are at least 15 seconds long. Uploads are capped at 40 seconds.').waitFor();
    }
  });

  describe(`with ${CLIPS} clips, their clipper and a followed streamer`, () => {
    let seeder: ClipSeeder;
    let clipper: Account;
    let streamer: Account;

    beforeAll(async () => {
      seeder = await clipSeeder(platform);
      clipper = await seeder.signUp('clipper');
      streamer = await seeder.signUp('streamer', { tokenLink: TOKEN_LINK });
      const fan = await seeder.signUp('clipper');
      const token = await seeder.tokenOf(streamer);
      await seeder.publish(clipper, CLIPS, { name: 'Home clip', tokenId: token.id });
      const followed = await seeder.api(`/api/follow/${streamer.id}`, { method: 'POST', cookie: fan.cookie });
      expect(followed.status).toBe(200);
      // The multiplier shown is the one rewards applies (ADR 0042): the step for one follower, told to the feed
      // by rewards.streamer-multiplier-changed; the stored one (1.00) is not what clips get.
      const step = Number(
        (
          await platform.rewardsDb.query<{ multiplier: string }>(
            'SELECT multiplier FROM multiplier_steps WHERE min_followers <= 1 ORDER BY min_followers DESC LIMIT 1',
          )
        ).rows[0]!.multiplier,
      );
      expect(step).toBe(1.1);
      await waitFor(
        async () => {
          const top = (await (await seeder.api('/api/top-streamers')).json()) as Array<{
            id: string;
            followerCount: number;
            multiplier: number;
          }>;
          return top[0]?.id === streamer.id && top[0].followerCount === 1 && top[0].multiplier === step ? true : undefined;
        },
        15_000,
        'the followed streamer on top',
      );
    }, 420_000);

    afterAll(async () => {
      await seeder?.close();
    });

    for (const [device, viewport] of VIEWPORTS) {
      it(`${device}: the carousel plays exactly one slide; next, previous, dots and swipes move it, wrapping at both ends`, async () => {
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        await openSite(page, `${platform.url}/`);
        await page.getByRole('link', { name: 'Watch Full Video' }).click();
        await page.waitForURL(`${platform.url}/feed`);
        // The feed's page is loaded on the way (its title is set once it is there).
        await untilInPage(page, `document.title === 'ClipTok'`);
        await page.goBack();
        const carousel = page.getByRole('region', { name: 'Live on Demand clips' });
        await carousel.waitFor({ state: 'attached' });
        if (device === 'phone') {
          // Below the hero, off screen: no video loads or plays until it is scrolled to.
          await page.evaluate('window.scrollTo(0, 0)');
          await page.waitForTimeout(300);
          const before = await carouselState(page);
          expect({ playing: before.playing, holding: before.holding }).toEqual({ playing: [], holding: [] });
        }
        await carousel.scrollIntoViewIfNeeded();
        await expectPlaying(page, 0);

        await carousel.getByRole('button', { name: 'Next clip' }).click();
        await expectPlaying(page, 1);
        await carousel.getByRole('button', { name: 'Next clip' }).click();
        await expectPlaying(page, 2);
        await carousel.getByRole('button', { name: 'Next clip' }).click();
        await expectPlaying(page, 0);
        await carousel.getByRole('button', { name: 'Previous clip' }).click();
        await expectPlaying(page, 2);
        await carousel.getByRole('button', { name: 'Show clip 2 of 3' }).click();
        await expectPlaying(page, 1);

        const stage = page.getByTestId('carousel-stage');
        await swipe(stage, -40);
        await swipe(stage, 49);
        await expectPlaying(page, 1);
        await swipe(stage, -80);
        await expectPlaying(page, 2);
        await swipe(stage, -80);
        await expectPlaying(page, 0);
        await swipe(stage, 80);
        await expectPlaying(page, 2);
        await swipe(stage, 120);
        await expectPlaying(page, 1);
        await carousel.scrollIntoViewIfNeeded();
        // Nothing wider than the screen (the clippers' row scrolls inside itself).
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      });

      it(`${device}: Goated Clippers links to the clipper's profile and Top Streamers shows the applied multiplier as Nx`, async () => {
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        await openSite(page, `${platform.url}/`);
        const streamerRow = page.getByTestId('streamer-row').filter({ hasText: streamer.displayName });
        await streamerRow.waitFor();
        expect(await streamerRow.getAttribute('href')).toBe(`/clipper/${streamer.id}`);
        expect(await streamerRow.innerText()).toMatch(/1\.1x/);
        expect(await streamerRow.innerText()).toMatch(/1 follower\b/);
        expect(await page.getByRole('link', { name: 'View All' }).getAttribute('href')).toBe('/discover?tab=streamers');

        const card = page.getByTestId('clipper-card').filter({ hasText: clipper.displayName });
        expect(await card.innerText()).toMatch(new RegExp(`@${clipper.handle}[\\s\\S]*${CLIPS}\\s+clips`));
        await card.click();
        await page.waitForURL(`${platform.url}/clipper/${clipper.id}`);
      });
    }
  });
});
