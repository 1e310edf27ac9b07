// Public screens in headless Chromium against the real platform: /client-services and its calls to
// action, and the add-clip dialog the public remote exposes (opened from the shell's mobile bottom bar):
// its checks say what is wrong without calling, and a submission the gateway cannot take yet (the
// submissions API arrives with a later issue: 404) is said so in a toast.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
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
    expect(await main.getByRole('img', { name: /^Sample clip:/ }).count()).toBe(2);
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
