// Sign in with X in headless Chromium (ADR 0028): the clipper landing's button through a real OAuth 2.0
// authorization server standing in for X (libs/testing), onto /connect to save a wallet, then the
// dashboard; the Login page's button, and its toast when the person says no at X.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startXOAuthStandIn, type XOAuthStandIn } from '@clipit/testing';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { expectToast, openSite, TEST_WALLET } from './support/site.js';

describe('sign in with X in the browser', () => {
  const browser = useBrowser();
  let x: XOAuthStandIn;
  let platform: Platform;
  const tag = Date.now().toString(36).slice(-6);
  const xUser = {
    id: `18${Date.now()}`.slice(0, 19),
    name: 'Browser X',
    username: `bx_${tag}`,
    profile_image_url: `https://pbs.twimg.com/profile_images/${tag}.jpg`,
  };

  beforeAll(async () => {
    x = await startXOAuthStandIn();
    platform = await startPlatform({
      X_OAUTH_CLIENT_ID: x.clientId,
      X_OAUTH_CLIENT_SECRET: x.clientSecret,
      X_OAUTH_AUTHORIZE_URL: x.authorizeUrl,
      X_OAUTH_TOKEN_URL: x.tokenUrl,
      X_API_BASE_URL: x.apiBaseUrl,
    });
    x.allowRedirectUri(`${platform.url}/auth/twitter/callback`);
  });

  afterAll(async () => {
    await platform?.stop();
    await x?.close();
  });

  afterEach(async () => {
    await browser.context.clearCookies();
  });

  it('signs a new clipper in from /clippers/auth, asks for a wallet on /connect, then opens the dashboard', async () => {
    x.signInAs(xUser);
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/clippers/auth`);
    await page.getByRole('button', { name: 'Sign in with Twitter' }).click();
    await page.waitForURL(`${platform.url}/connect`);
    await page.getByRole('heading', { name: 'Add Wallet Address' }).waitFor();
    await page.getByText('Twitter Connected', { exact: true }).waitFor();
    await page.getByText(`Signed in as @${xUser.username}.`, { exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'Add Wallet Address' });
    await form.getByLabel('Solana Wallet Address').fill(TEST_WALLET);
    await form.getByRole('button', { name: 'Save Wallet Address' }).click();
    await expectToast(page, 'Wallet Added!', 'Your wallet address has been saved. You can now submit posts to the leaderboard.');
    await page.getByRole('heading', { name: 'All Set!' }).waitFor();

    // Signed out of CLIP IT only: the next sign-in with X (from the Login page) goes straight to the dashboard.
    const sid = (await browser.context.cookies(platform.url)).find((c) => c.name === 'clipit.sid');
    expect(sid?.httpOnly).toBe(true);
    await browser.context.clearCookies({ name: 'clipit.sid' });
    await openSite(page, `${platform.url}/login`);
    await page.locator('main').getByRole('button', { name: 'Sign in with X' }).click();
    await page.waitForURL(`${platform.url}/clippers/dashboard`);
    const me = (await (await page.request.get(`${platform.url}/api/user/me`)).json()) as { twitterUsername: string; walletAddress: string };
    expect(me).toMatchObject({ twitterUsername: xUser.username, walletAddress: TEST_WALLET });
  });

  it('brings a person who said no at X back to /login with the reason in a toast, and a clean address', async () => {
    x.signInAs({ ...xUser, id: `19${Date.now()}`.slice(0, 19), username: `by_${tag}` });
    x.denyNext();
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/login`);
    await page.locator('main').getByRole('button', { name: 'Sign in with X' }).click();
    await expectToast(page, 'Login Error', 'You cancelled signing in with X. Nothing was changed.');
    await page.waitForURL(`${platform.url}/login`);
    expect(new URL(page.url()).search).toBe('');
  });
});
