// Live notifications in headless Chromium against the real platform (gateway → social, identity): a
// signed-in follower with notification permission granted keeps the site open; the streamer goes live;
// the browser notification of spec 01 §8 appears within seconds (over the live stream, not the 30 s
// poll), once per live period, and a click opens the streamer's profile.
//
// Headless Chromium shows no desktop notification to photograph, so the page records each Notification
// it constructs (the real one is still made) and draws it in a corner for the screenshot.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '@clipit/testing';
import { asOurPage, startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { newPerson, openSite, signInBrowser, TEST_WALLET, untilInPage } from './support/site.js';

interface Shown {
  title: string;
  body: string;
  icon: string;
  tag: string;
}

/** Wraps window.Notification before the site loads: records and draws each one, keeps the real behaviour. */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  const shown = [];
  window.__shownNotifications = shown;
  class Recorded extends Real {
    constructor(title, options = {}) {
      super(title, options);
      shown.push({ title, body: options.body ?? '', icon: options.icon ?? '', tag: options.tag ?? '' });
      window.__lastNotification = this;
      const card = document.createElement('div');
      card.setAttribute('data-test-notification', options.tag ?? '');
      card.style.cssText = 'position:fixed;top:12px;right:12px;z-index:99999;width:340px;padding:12px 14px;border-radius:10px;background:#fff;color:#111;font:14px system-ui,sans-serif;box-shadow:0 6px 24px rgba(0,0,0,.35);display:flex;gap:10px;align-items:center';
      const icon = document.createElement('img');
      icon.src = options.icon ?? '';
      icon.width = 40;
      icon.height = 40;
      const text = document.createElement('div');
      text.innerHTML = '<strong></strong><div></div>';
      text.querySelector('strong').textContent = title;
      text.querySelector('div').textContent = options.body ?? '';
      card.append(icon, text);
      document.body.append(card);
    }
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  Recorded.requestPermission = Real.requestPermission.bind(Real);
  window.Notification = Recorded;
})();`;

describe('live notifications (spec 01 §8)', () => {
  const browser = useBrowser();
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => {
    await platform?.stop();
  });

  async function account(role: 'clipper' | 'streamer', displayName: string) {
    const who = newPerson(role === 'streamer' ? 'st' : 'fan');
    const res = await fetch(`${platform.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: who.email,
        twitterHandle: who.handle,
        walletAddress: TEST_WALLET,
        role,
        password: 'a-good-password',
        displayName,
      }),
    });
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    const id = ((await res.json()) as { user: { id: string } }).user.id;
    return { id, sid, handle: who.handle, cookie: `clipit.sid=${sid}` };
  }
  const call = (cookie: string, path: string) => fetch(...asOurPage(platform.url, path, { method: 'POST', headers: { cookie } }));
  const shown = (page: Page) => page.evaluate('window.__shownNotifications') as Promise<Shown[]>;

  it('shows the notification within seconds of a followed streamer going live, once per live period, and a click opens their profile', async () => {
    const streamer = await account('streamer', 'Ada Live');
    const fan = await account('clipper', 'Fan');
    expect((await call(fan.cookie, `/api/follow/${streamer.id}`)).status).toBe(200);

    await browser.context.grantPermissions(['notifications'], { origin: platform.url });
    await signInBrowser(browser.context, platform.url, fan.sid);
    const page = await browser.newPage();
    const streams: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/live/stream') streams.push(r.url());
    });
    await page.addInitScript(RECORD_NOTIFICATIONS);
    await openSite(page, `${platform.url}/`);
    await untilInPage(page, "Notification.permission === 'granted'");
    await waitFor(() => (streams.length > 0 ? true : undefined), 10_000, 'the shell to open the live stream');
    expect(await shown(page)).toEqual([]);

    const wentLive = Date.now();
    const res = await call(streamer.cookie, '/api/users/go-live');
    expect(await res.json()).toMatchObject({ notifiedFollowers: 1 });
    await page.locator(`[data-test-notification="stream-${streamer.id}"]`).waitFor({ timeout: 10_000 });
    // Far sooner than the 30 s poll: the live stream delivered it.
    expect(Date.now() - wentLive).toBeLessThan(10_000);
    expect(await shown(page)).toEqual([
      { title: 'Ada Live is now live!', body: 'Click to watch their stream', icon: '/icon.png', tag: `stream-${streamer.id}` },
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'live-notification.png') });

    // Still live a while later: not announced again. Offline and live again: a new live period, announced again.
    await page.waitForTimeout(1500);
    expect(await shown(page)).toHaveLength(1);
    await call(streamer.cookie, '/api/users/go-offline');
    await call(streamer.cookie, '/api/users/go-live');
    await untilInPage(page, 'window.__shownNotifications.length === 2', { timeout: 10_000 });

    // A click on the notification opens the streamer's profile.
    await page.evaluate("window.__lastNotification.onclick(new Event('click'))");
    await page.waitForURL(`${platform.url}/clipper/${streamer.id}`);
  });
});
