// Public screens in headless Chromium against the real platform: /client-services, its calls to action and
// its two sample videos playing (phone and desktop), served in byte ranges; the sign-in buttons of a
// platform without an X app (ADR 0028); and the add-clip dialog the public remote exposes (opened from the shell's mobile bottom bar):
// its checks say what is wrong without calling, and a submission the gateway cannot take yet (the
// submissions API arrives with a later issue: 404) is said so in a toast.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@clipit/testing';
import type { Locator, Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { expectToast, openSite } from './support/site.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

describe('public screens', () => {
  const browser = useBrowser();
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('/client-services shows the samples and offers, and each call to action goes to /discover', async () => {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/client-services`);
    await expect(page.title()).resolves.toBe('Client Services');
    const main = page.locator('main');
    await main.getByRole('heading', { name: 'Client Services', level: 1 }).waitFor();
    expect(await main.getByLabel(/^Sample clip:/).count()).toBe(2);
    for (const name of [
      'Pay-Per-View Campaigns',
      'Partner With Us',
      'Why CLIP IT',
      'Proven Results',
      'Elite Salaried Team',
      'End-to-End Growth',
    ]) {
      expect(await main.getByRole('heading', { name }).isVisible()).toBe(true);
    }
    for (const cta of ['Start a Campaign', 'Become a Partner', 'Get Started']) {
      await openSite(page, `${platform.url}/client-services`);
      await main.getByRole('link', { name: cta }).click();
      await page.waitForURL(`${platform.url}/discover`);
    }
    await openSite(page, `${platform.url}/client-services`);
    await main.getByRole('heading', { name: 'Why CLIP IT' }).waitFor();
  });

  /** What the page's <video> says of itself (the lib of these tests has no DOM types). */
  interface VideoState {
    readyState: number;
    currentTime: number;
    paused: boolean;
    muted: boolean;
    loop: boolean;
    error: { code: number } | null;
    currentSrc: string;
    poster: string;
  }
  const videoState = (video: Locator) =>
    video.evaluate((v) => {
      const el = v as unknown as VideoState;
      return {
        readyState: el.readyState,
        currentTime: el.currentTime,
        paused: el.paused,
        muted: el.muted,
        loop: el.loop,
        error: el.error ? { code: el.error.code } : null,
        currentSrc: el.currentSrc,
        poster: el.poster,
      };
    });

  for (const [name, viewport] of VIEWPORTS) {
    it(`${name}: /client-services plays both sample videos, served in byte ranges with their posters`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      const ranged: number[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname.endsWith('.mp4')) ranged.push(r.status());
      });
      await openSite(page, `${platform.url}/client-services`);
      const videos = page.locator('main').getByLabel(/^Sample clip:/);
      expect(await videos.count()).toBe(2);
      for (const video of await videos.all()) {
        // A muted autoplaying video plays while it is on screen.
        await video.scrollIntoViewIfNeeded();
        await waitFor(
          async () => {
            const state = await videoState(video);
            if (state.error) throw new Error(`the sample video failed: ${JSON.stringify(state)}`);
            return state.readyState >= 2 && state.currentTime > 0.3 && !state.paused ? state : undefined;
          },
          20_000,
          'the sample video playing',
        );
        const state = await videoState(video);
        expect([state.muted, state.loop]).toEqual([true, true]);
        // Its poster is a file of the remote's build, cached for good.
        const poster = await page.request.get(state.poster);
        expect([poster.status(), poster.headers()['content-type'], poster.headers()['cache-control']]).toEqual([
          200,
          'image/jpeg',
          'public, max-age=31536000, immutable',
        ]);
      }
      // The browser fetched the videos in ranges (206), as a player does.
      expect(ranged.length).toBeGreaterThan(0);
      expect(ranged.every((status) => status === 206)).toBe(true);

      // A Range request answers exactly those bytes of the file.
      const src = (await videoState(videos.first())).currentSrc;
      const whole = await page.request.get(src);
      const bytes = await whole.body();
      expect([whole.status(), whole.headers()['content-type'], whole.headers()['accept-ranges'], whole.headers()['cache-control']]).toEqual(
        [200, 'video/mp4', 'bytes', 'public, max-age=31536000, immutable'],
      );
      expect(bytes.length).toBeLessThan(300 * 1024);
      const part = await page.request.get(src, { headers: { Range: 'bytes=100-1123' } });
      expect([part.status(), part.headers()['content-range'], part.headers()['content-length']]).toEqual([
        206,
        `bytes 100-1123/${bytes.length}`,
        '1024',
      ]);
      expect(Buffer.compare(await part.body(), bytes.subarray(100, 1124))).toBe(0);
    });
  }

  describe('signing in on a platform without an X app (X_OAUTH_CLIENT_ID unset, ADR 0028)', () => {
    /** The page at `path`, once it has heard from the gateway that sign in with X is off here. */
    const openKnowingProviders = async (path: string, viewport: { width: number; height: number }) => {
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      const providers = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/providers');
      await openSite(page, `${platform.url}${path}`);
      expect(await (await providers).json()).toEqual({ x: { available: false } });
      return page;
    };
    const noXAnywhere = async (page: Page) => {
      expect(await page.getByText(/not available/i).count()).toBe(0);
      expect(
        await page
          .locator('main')
          .getByRole('button', { name: /Sign in with X/ })
          .count(),
      ).toBe(0);
    };

    for (const [name, viewport] of VIEWPORTS) {
      it(`${name}: /clippers/auth's 'Sign in with Twitter' opens the password sign-in at /login, which offers only what works`, async () => {
        const page = await openKnowingProviders('/clippers/auth', viewport);
        const main = page.locator('main');
        const button = main.getByRole('button', { name: 'Sign in with Twitter' });
        expect(await button.isEnabled()).toBe(true);
        await noXAnywhere(page);
        const navigations: string[] = [];
        page.on('request', (r) => {
          if (r.isNavigationRequest()) navigations.push(new URL(r.url()).pathname);
        });
        await button.click();
        await page.waitForURL(`${platform.url}/login`);
        await main.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Log In' }).waitFor();
        // A route of the site, not X's round trip.
        expect(navigations).toEqual([]);
        await noXAnywhere(page);
        expect(await main.getByText('or', { exact: true }).count()).toBe(0);
      });

      it(`${name}: /connect's 'Login with Twitter' opens the password sign-in at /login`, async () => {
        const page = await openKnowingProviders('/connect', viewport);
        const main = page.locator('main');
        await main.getByRole('heading', { name: 'Login Required' }).waitFor();
        await noXAnywhere(page);
        await main.getByRole('button', { name: 'Login with Twitter' }).click();
        await page.waitForURL(`${platform.url}/login`);
        await main.getByRole('form', { name: 'Login' }).waitFor();
        await noXAnywhere(page);
      });
    }
  });

  describe('the add-clip dialog', () => {
    const openDialog = async (page: Page) => {
      await page.setViewportSize(PHONE);
      await openSite(page, `${platform.url}/client-services`);
      await page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('button', { name: 'Add' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a Clip' });
      await dialog.waitFor();
      return dialog;
    };

    it('checks the title, the post link and the video without calling the API', async () => {
      const page = await browser.newPage();
      const submissions: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/submissions')) submissions.push(r.method());
      });
      const dialog = await openDialog(page);
      await dialog.getByLabel('Streamer (optional)').waitFor();
      expect(await dialog.getByLabel('Streamer (optional)').inputValue()).toBe('none');

      await dialog.getByRole('button', { name: 'Submit Clip' }).click();
      await expectToast(page, 'Missing Information', 'Please fill in the clip title and Twitter URL.');

      await dialog.getByLabel('Clip Title').fill('Big play');
      await dialog.getByLabel('Twitter/X Post URL').fill('https://www.youtube.com/watch?v=42');
      await dialog.getByRole('button', { name: 'Submit Clip' }).click();
      await expectToast(page, 'Invalid Twitter URL', 'Please enter a valid Twitter/X post URL.');

      const picker = dialog.getByLabel('Video (optional)');
      await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video') });
      await expectToast(page, 'Invalid File Type', 'Please upload a video file (MP4, WebM, MOV, or AVI).');
      // An .mp4 the browser cannot decode: its metadata never loads.
      await picker.setInputFiles({ name: 'broken.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(4096, 7) });
      await expectToast(page, 'Invalid Video', 'Could not read video file. Please try a different file.');
      expect(await picker.evaluate((input) => (input as unknown as { files: { length: number } }).files.length)).toBe(0);
      expect(submissions).toEqual([]);

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    });

    it('says Submission Failed with the server’s answer (a visitor who is not signed in is refused)', async () => {
      const page = await browser.newPage();
      const dialog = await openDialog(page);
      await dialog.getByLabel('Clip Title').fill('Big play');
      await dialog.getByLabel('Twitter/X Post URL').fill('https://x.com/clip_king/status/1790000000000000001');
      const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/submissions' && r.method() === 'POST');
      await dialog.getByRole('button', { name: 'Submit Clip' }).click();
      expect((await request).postDataJSON()).toEqual({
        name: 'Big play',
        url: 'https://x.com/clip_king/status/1790000000000000001',
        externalId: '1790000000000000001',
        authorHandle: 'clip_king',
        walletAddress: 'pending',
        additionalInfo: null,
        tokenId: null,
      });
      await expectToast(page, 'Submission Failed', '401: Not signed in');
      // Still open, with what was typed, to try again.
      expect(await dialog.getByLabel('Clip Title').inputValue()).toBe('Big play');
      expect(await dialog.getByRole('button', { name: 'Submit Clip' }).isEnabled()).toBe(true);
    });
  });
});
