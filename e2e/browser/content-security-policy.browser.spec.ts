// The site under its Content-Security-Policy and Permissions-Policy (docs/adr/0036), in headless Chromium
// against the real platform: every page of both spec documents (the public pages signed out, the clipper's
// and the streamer's dashboards signed in with every tab opened, the admin area unlocked with every tab
// opened) is served with the policy, renders, loads all three remotes, plays what it plays (a clip in the
// feed, a chosen video read in the browser before upload) and meets no violation: no
// `securitypolicyviolation` event in the page and no console message about either policy.
import { synthesizeClip } from '@clipit/media';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { openSite, REMOTES, signInBrowser, untilInPage } from './support/site.js';

/** What a page reports about the policies: violations (from the event) and console lines naming a policy. */
interface Findings {
  violations: string[];
  console: string[];
}

// Registered before any script of the page runs (Playwright injects it outside the page's policy).
const LISTEN_FOR_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber);
  });
`;

const POLICY_MESSAGE = /Content[- ]Security[- ]Policy|Permissions[- ]Policy|Refused to (load|execute|apply|connect|frame)/i;

describe('the site under its Content-Security-Policy', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let clipper: Account;
  let streamer: Account;
  let dir = '';
  let videoPath = '';

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    streamer = await seeder.signUp('streamer', { tokenLink: 'https://pump.fun/coin/cspcheck' });
    clipper = await seeder.signUp('clipper');
    const token = await seeder.tokenOf(streamer);
    // A clip in the feed (video, poster, the clipper's and the streamer's pages have it).
    await seeder.publish(clipper, 1, { tokenId: token.id });
    dir = await mkdtemp(join(tmpdir(), 'clipit-browser-csp-'));
    videoPath = join(dir, 'pick.mp4');
    await synthesizeClip({ path: videoPath, durationSeconds: 2, width: 360, height: 640, withAudio: false, fps: 10 });
  });

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A tab that records what the policies report. */
  async function watchedPage(): Promise<{ page: Page; findings: () => Promise<Findings> }> {
    const page = await browser.newPage();
    await page.addInitScript(LISTEN_FOR_VIOLATIONS);
    const consoleLines: string[] = [];
    page.on('console', (message) => {
      if (POLICY_MESSAGE.test(message.text())) consoleLines.push(`${message.type()}: ${message.text()}`);
    });
    return {
      page,
      findings: async () => ({
        violations: (await page.evaluate('window.__cspViolations ?? []')) as string[],
        console: [...consoleLines],
      }),
    };
  }

  /**
   * Opens `path`: its HTML carries both policies, its screen renders (an h1, or `ready`), and every remote
   * loads (the shell loads the others when idle), all under the policy.
   */
  async function visit(page: Page, path: string, ready?: (page: Page) => Locator): Promise<void> {
    const answer = page.waitForResponse(
      (r) => r.request().isNavigationRequest() && new URL(r.url()).pathname === new URL(path, platform.url).pathname,
    );
    await openSite(page, `${platform.url}${path}`);
    const headers = (await answer).headers();
    expect({ path, csp: headers['content-security-policy'] }).toEqual({ path, csp: expect.stringContaining("script-src 'self'") });
    expect({ path, permissions: headers['permissions-policy'] }).toEqual({ path, permissions: expect.stringContaining('camera=()') });
    await (ready ? ready(page) : page.locator('main').getByRole('heading', { level: 1 }).first()).waitFor();
    await untilInPage(
      page,
      `${JSON.stringify(REMOTES)}.every((name) => document.querySelector('meta[name="clipit-remote:' + name + '"]'))`,
      { timeout: 30_000 },
    );
  }

  /** Clicks every tab of the page's first tab list in turn, each panel rendered. */
  async function everyTab(page: Page): Promise<string[]> {
    const tabs = page.locator('main').getByRole('tablist').first().getByRole('tab');
    const names = await tabs.allTextContents();
    for (let i = 0; i < names.length; i += 1) {
      await tabs.nth(i).click();
      await page.locator('main').getByRole('tabpanel').first().waitFor();
    }
    return names;
  }

  const clean = (findings: Findings) => expect(findings).toEqual({ violations: [], console: [] });

  it('serves and renders every public page with no violation', async () => {
    const { page, findings } = await watchedPage();
    const pages = [
      '/',
      '/feed',
      '/discover',
      '/discover?tab=streamers',
      '/leaderboard',
      `/clipper/${clipper.id}`,
      `/clipper/${streamer.id}`,
      '/submit',
      '/guide',
      '/login',
      '/reset-password',
      '/verify-email',
      '/connect',
      '/client-services',
      '/clippers/auth',
      '/clippers/apply',
    ];
    for (const path of pages) await visit(page, path);
    // The 404 page: the shell's own.
    await visit(page, '/no-such-page', (p) => p.getByRole('heading', { name: '404 Page Not Found' }));

    // The feed plays its clip (media from /media under media-src).
    await visit(page, '/feed');
    await untilInPage(page, "[...document.querySelectorAll('video')].some((v) => v.readyState >= 2)", { timeout: 30_000 });

    // A chosen video is read in the browser (a blob: address) before it is uploaded.
    await visit(page, '/submit');
    await page.locator('input[type="file"]').first().setInputFiles(videoPath);
    await page
      .getByText(/pick\.mp4/)
      .first()
      .waitFor();

    // The theme toggle writes the class and colour scheme from script (allowed: no inline style element).
    await page
      .getByRole('button', { name: /Switch to (light|dark) theme/ })
      .first()
      .click();
    clean(await findings());
  });

  it('serves and renders the clipper’s dashboard, every tab, with no violation', async () => {
    await signInBrowser(browser.context, platform.url, clipper.sid);
    const { page, findings } = await watchedPage();
    await visit(page, '/clippers/dashboard', (p) => p.locator('main').getByText(/Welcome back/));
    expect(await everyTab(page)).toEqual(expect.arrayContaining(['Submissions', 'Earnings']));
    await visit(page, '/connect');
    await visit(page, '/submit');
    clean(await findings());
    await browser.context.clearCookies();
  });

  it('serves and renders the streamer’s dashboard, every tab, with no violation', async () => {
    await signInBrowser(browser.context, platform.url, streamer.sid);
    const { page, findings } = await watchedPage();
    await visit(page, '/clippers/dashboard', (p) => p.locator('main').getByRole('tablist', { name: 'Dashboard sections' }));
    expect(await everyTab(page)).toEqual(['Tagged Videos', 'Followers', 'Streaming', 'CPM Campaigns', 'Profile']);
    clean(await findings());
    await browser.context.clearCookies();
  });

  it('serves and renders the admin area, unlocked, every tab, with no violation', async () => {
    const { page, findings } = await watchedPage();
    await visit(page, '/admin', (p) => p.getByLabel('Password', { exact: true }));
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect((await everyTab(page)).length).toBeGreaterThanOrEqual(3);
    clean(await findings());
  });
});
