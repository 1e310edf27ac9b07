// The frame the shell owns, in headless Chromium against the real platform: the theme (dark by
// default, on <html> before the first paint, toggled and remembered), the header for signed-out and
// signed-in visitors with the outside links, the mobile bottom bar on phones only (with the add-clip
// dialog from the public remote, or a toast when it cannot be had), the 404 page inside the frame, and
// live notifications (permission granted: /api/followers/live polled, quiet when it fails).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Request } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { untilInPage } from './support/site.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// The header links' defaults (frontends/shell/src/config/links.ts), as the test build has no CLIPIT_LINK_*.
const DEFAULT_LINKS = {
  'Community Chat': 'https://t.me/clipitchat',
  X: 'https://x.com/clipit',
  Telegram: 'https://t.me/clipit',
  Discord: 'https://discord.gg/clipit',
  'Buy $CLIP': 'https://pump.fun',
};

let seq = 0;
function person() {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return { handle: `frame_${tag}`.slice(0, 15), email: `frame${tag}@example.com` };
}

/** The page with the frame drawn and all three remotes loaded. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  for (const name of ['public', 'dashboard', 'admin'])
    await page.locator(`meta[name="clipit-remote:${name}"]`).waitFor({ state: 'attached' });
  await page.locator('header').waitFor();
}

// The test code type-checks without the DOM library, so code run in the page is given as text.
const inPage = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
const htmlClass = (page: Page) => inPage<string>(page, 'document.documentElement.className');
const bodyBackground = (page: Page) => inPage<string>(page, 'getComputedStyle(document.body).backgroundColor');
const storedTheme = (page: Page) => inPage<string | null>(page, "localStorage.getItem('clip-theme')");
const focusedText = (page: Page) => inPage<string | null>(page, 'document.activeElement?.textContent ?? null');
const bottomBar = (page: Page) => page.getByRole('navigation', { name: 'Quick navigation' });
const header = (page: Page) => page.locator('header');

describe('the frame', () => {
  const browser = useBrowser();
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const newPage = async (viewport = DESKTOP) => {
    const page = await browser.newPage();
    await page.setViewportSize(viewport);
    return page;
  };

  it('is dark by default with the class on <html> before the first paint, and the toggle switches and remembers the theme', async () => {
    const page = await newPage();
    // What <html> carries when the parser creates <body>: before anything is painted, before any bundle ran.
    await page.addInitScript(`
      window.__htmlClassAtBody = null;
      const observer = new MutationObserver(() => {
        if (document.body) {
          window.__htmlClassAtBody = document.documentElement.className;
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    `);
    const classAtBody = () => inPage<string | null>(page, 'window.__htmlClassAtBody');

    await open(page, `${platform.url}/`);
    await expect(classAtBody()).resolves.toBe('dark');
    await expect(htmlClass(page)).resolves.toBe('dark');
    await expect(bodyBackground(page)).resolves.toBe('rgb(9, 9, 13)');

    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(htmlClass(page)).resolves.toBe('light');
    await expect(storedTheme(page)).resolves.toBe('light');
    await expect(bodyBackground(page)).resolves.toBe('rgb(250, 250, 250)');

    await open(page, `${platform.url}/feed`);
    await expect(classAtBody()).resolves.toBe('light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();

    // The boot script alone sets it (a small file of its own before any bundle): with every bundle blocked the class is still there.
    await page.route('**/js/**', (route) => route.abort());
    await page.reload();
    await expect(htmlClass(page)).resolves.toBe('light');
    await page.unroute('**/js/**');

    await open(page, `${platform.url}/`);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(htmlClass(page)).resolves.toBe('dark');
    await expect(storedTheme(page)).resolves.toBe('dark');
  });

  it('shows the bottom bar on a phone, with the current page marked, and hides it on a desktop', async () => {
    const page = await newPage(PHONE);
    await open(page, `${platform.url}/feed`);
    const bar = bottomBar(page);
    expect(await bar.isVisible()).toBe(true);
    for (const name of ['Clips', 'Add', 'Discover', 'Login'])
      expect(await bar.getByRole(name === 'Add' ? 'button' : 'link', { name, exact: true }).isVisible()).toBe(true);
    expect(await bar.getByRole('link', { name: 'Clips' }).getAttribute('aria-current')).toBe('page');
    expect(await bar.locator('[aria-current="page"]').count()).toBe(1);

    await bar.getByRole('link', { name: 'Discover' }).click();
    await page.waitForURL(`${platform.url}/discover`);
    expect(await bar.getByRole('link', { name: 'Discover' }).getAttribute('aria-current')).toBe('page');
    expect(await bar.getByRole('link', { name: 'Clips' }).getAttribute('aria-current')).toBeNull();
    // On a phone the header's navigation is in the drawer.
    expect(await header(page).getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);

    await page.setViewportSize(DESKTOP);
    expect(await bar.isVisible()).toBe(false);
    expect(await header(page).getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
  });

  it('shows Login and no Dashboard to a visitor, the Discover menu, and outside links that open in a new tab', async () => {
    const page = await newPage();
    await open(page, `${platform.url}/`);
    const nav = header(page).getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Home', '/'],
      ['ClipTok', '/feed'],
      ['Client Services', '/client-services'],
    ] as const) {
      expect(await nav.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }
    await header(page).getByRole('link', { name: 'Login', exact: true }).waitFor();
    // The whole row fits a 1280 px desktop: nothing scrolls sideways.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(DESKTOP.width);
    expect(await header(page).getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    expect(await header(page).getByRole('link', { name: 'Logout' }).count()).toBe(0);

    for (const [name, href] of Object.entries(DEFAULT_LINKS)) {
      const link = header(page).getByRole('link', { name: `${name} (opens in a new tab)`, exact: true });
      expect({
        name,
        href: await link.getAttribute('href'),
        target: await link.getAttribute('target'),
        rel: await link.getAttribute('rel'),
      }).toEqual({
        name,
        href,
        target: '_blank',
        rel: 'noopener noreferrer',
      });
    }

    // The Discover menu button: opens on its first item, arrows move, Escape closes back to the button.
    const discover = nav.getByRole('button', { name: 'Discover' });
    expect(await discover.getAttribute('aria-haspopup')).toBe('menu');
    expect(await discover.getAttribute('aria-expanded')).toBe('false');
    await discover.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Discover' });
    await menu.waitFor();
    expect(await discover.getAttribute('aria-expanded')).toBe('true');
    expect(await focusedText(page)).toBe('Discover Creators');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe('Leaderboard');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await focusedText(page)).toBe('Discover');
    await discover.click();
    await page.getByRole('menuitem', { name: 'Leaderboard' }).click();
    await page.waitForURL(`${platform.url}/leaderboard`);
    expect(await menu.count()).toBe(0);
  });

  it('shows Dashboard and Logout to a signed-in user, in the header and in the mobile drawer', async () => {
    const me = person();
    const signup = await fetch(`${platform.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: me.email,
        displayName: 'Frame Person',
        twitterHandle: me.handle,
        walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
        role: 'clipper',
        tokenLink: '',
        claimCode: '',
        password: 'frame-password',
      }),
    });
    expect(signup.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(signup.headers.get('set-cookie') ?? '')?.[1];
    expect(sid).toBeTruthy();
    await browser.context.addCookies([{ name: 'clipit.sid', value: sid!, url: platform.url }]);
    try {
      const page = await newPage();
      await open(page, `${platform.url}/`);
      const dashboard = header(page).getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' });
      await dashboard.waitFor();
      expect(await dashboard.getAttribute('href')).toBe('/clippers/dashboard');
      expect(await header(page).getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/api/logout');
      expect(await header(page).getByRole('link', { name: 'Login', exact: true }).count()).toBe(0);

      // The drawer on a phone: a modal dialog with the same links, focus inside, back on the button when closed.
      await page.setViewportSize(PHONE);
      const menuButton = page.getByRole('button', { name: 'Open menu' });
      await menuButton.click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.waitFor();
      expect(await drawer.getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(true);
      expect(await drawer.getByRole('link', { name: 'Logout' }).isVisible()).toBe(true);
      expect(await drawer.getByRole('link', { name: 'Leaderboard' }).isVisible()).toBe(true);
      expect(await inPage<boolean>(page, `Boolean(document.activeElement?.closest('[role="dialog"]'))`)).toBe(true);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      expect(await inPage<string | null>(page, "document.activeElement?.getAttribute('aria-label') ?? null")).toBe('Open menu');
      await menuButton.click();
      await drawer.getByRole('link', { name: 'ClipTok' }).click();
      await page.waitForURL(`${platform.url}/feed`);
      await drawer.waitFor({ state: 'detached' });
    } finally {
      await browser.context.clearCookies();
    }
  });

  it('lets a visitor’s page reach network-idle: the 401 of GET /api/user/me is read, not left open', async () => {
    const page = await newPage();
    const me = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/user/me');
    // A body nobody reads or cancels keeps Chromium's request open, and network-idle never comes.
    await page.goto(`${platform.url}/login`, { waitUntil: 'networkidle', timeout: 20_000 });
    expect((await me).status()).toBe(401);
  });

  it('shows the 404 page for an unknown path inside the frame', async () => {
    const page = await newPage();
    await open(page, `${platform.url}/nope`);
    await page.locator('main').getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await expect(page.title()).resolves.toBe('404 Page Not Found');
    await expect(page.getAttribute('meta[name="description"]', 'content')).resolves.toBe('There is no such page on CLIP IT.');
    expect(await header(page).getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.locator('header').count()).toBe(1);
  });

  it('opens the add-clip dialog from the public remote', async () => {
    const page = await newPage(PHONE);
    await open(page, `${platform.url}/feed`);
    await bottomBar(page).getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedText(page)).toBe('Add');
  });

  it('says adding clips is unavailable when the public remote cannot be had, and the page keeps working', async () => {
    const page = await newPage(PHONE);
    // The public remote down: its entry never answers.
    await page.route('**/remotes/public/remoteEntry.js', (route) => route.abort());
    await page.goto(`${platform.url}/feed`);
    await page.getByText('This part of CLIP IT could not be loaded.').waitFor();
    await bottomBar(page).getByRole('button', { name: 'Add' }).click();
    const toast = page.getByRole('region', { name: 'Notifications (F8)' });
    await toast.getByText('Unavailable', { exact: true }).waitFor();
    await toast.getByText('Adding clips is unavailable right now. Please try again.').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await bottomBar(page).getByRole('link', { name: 'Discover' }).click();
    await page.waitForURL(`${platform.url}/discover`);
    expect(await bottomBar(page).getByRole('link', { name: 'Discover' }).getAttribute('aria-current')).toBe('page');
  });

  describe('live notifications', () => {
    afterEach(async () => {
      await browser.context.clearPermissions();
    });

    it('polls /api/followers/live once notifications are granted, quietly when the call fails', async () => {
      await browser.context.grantPermissions(['notifications'], { origin: platform.url });
      const page = await newPage();
      const polls: Request[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/followers/live') polls.push(r);
      });
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/followers/live');
      await open(page, `${platform.url}/`);
      const response = await answered;
      // Signed out: 401 Not signed in, which must stay quiet (the live stream is refused alike, and the shell keeps polling).
      expect(response.status()).toBe(401);
      expect(polls.map((r) => r.method())).toEqual(['GET']);
      await page.waitForTimeout(300);
      expect(await page.getByRole('region', { name: 'Notifications (F8)' }).locator('li').count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
    });

    it('announces each streamer who goes live once, every 30 s, and a click opens their profile', async () => {
      await browser.context.grantPermissions(['notifications'], { origin: platform.url });
      const page = await newPage();
      // Record the notifications the page shows (the browser's own would be invisible to the test).
      await page.addInitScript(`
        const shown = (window.__shown = []);
        class Recorded extends EventTarget {
          static permission = 'granted';
          static requestPermission() {
            return Promise.resolve('granted');
          }
          constructor(title, options = {}) {
            super();
            this.onclick = null;
            shown.push({ title, body: options.body, icon: options.icon, tag: options.tag, click: () => this.onclick?.() });
          }
          close() {}
        }
        Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
      `);
      const answers = [
        [{ id: 's1', displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: null }],
        [
          { id: 's1', displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: null },
          { id: 's2', displayName: null, twitterUsername: 'grace', profileImageUrl: 'https://cdn.example/grace.png' },
        ],
      ];
      let polls = 0;
      await page.route('**/api/followers/live', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(answers[Math.min(polls++, answers.length - 1)]),
        }),
      );
      await page.clock.install();
      await open(page, `${platform.url}/`);
      const shown = () => inPage<unknown[]>(page, 'window.__shown.map(({ title, body, icon, tag }) => ({ title, body, icon, tag }))');
      await untilInPage(page, 'window.__shown.length === 1');
      expect(await shown()).toEqual([
        { title: 'Ada is now live!', body: 'Click to watch their stream', icon: '/icon.png', tag: 'stream-s1' },
      ]);

      await page.clock.fastForward(30_000);
      await untilInPage(page, 'window.__shown.length === 2');
      // A third answer, the same as the second: nobody new.
      const third = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/followers/live');
      await page.clock.fastForward(30_000);
      await third;
      expect((await shown()).slice(1)).toEqual([
        { title: 'grace is now live!', body: 'Click to watch their stream', icon: 'https://cdn.example/grace.png', tag: 'stream-s2' },
      ]);
      expect(polls).toBe(3);

      await inPage(page, 'window.__shown[1].click()');
      await page.waitForURL(`${platform.url}/clipper/s2`);
    });
  });
});
