// The account screens in headless Chromium against the real platform (identity behind the gateway):
// /login (sign-up with the client checks first, log in, reset password through the dialog and the mailed
// link, the email confirmed from its link), logout,
// /connect in its three states, and the clipper landing page at /clippers/auth.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { join } from 'node:path';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { expectToast, newPerson, openSite, signInBrowser, signUpByApi, TEST_WALLET } from './support/site.js';
import { RESET_LINK_MESSAGES } from '@clipit/field-rules';

const OTHER_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe('account screens', () => {
  const browser = useBrowser();
  let platform: Platform;
  // One account, carried through sign-up, logout, login and reset.
  const alice = newPerson('auth');
  let password = 'first-password-1';

  beforeAll(async () => {
    // Sign in with X configured (its round trip is x-sign-in.browser.spec.ts's): the buttons here only
    // have to start it. X's authorize page is a closed local port, so nothing leaves the machine.
    platform = await startPlatform({
      X_OAUTH_CLIENT_ID: 'auth-browser-client',
      X_OAUTH_AUTHORIZE_URL: 'http://127.0.0.1:9/i/oauth2/authorize',
    });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  afterEach(async () => {
    await browser.context.clearCookies();
  });

  /** Every non-GET call the page makes to the API, as "METHOD /path". */
  const recordWrites = (page: Page) => {
    const writes: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() !== 'GET' && url.pathname.startsWith('/api/')) writes.push(`${request.method()} ${url.pathname}`);
    });
    return writes;
  };

  const loginForm = (page: Page) => page.getByRole('form', { name: 'Login' });
  const signupForm = (page: Page) => page.getByRole('form', { name: 'Sign Up' });

  it('sign-up shows the spec’s messages and sends nothing while the form is invalid, then creates the account and goes to the dashboard', async () => {
    const page = await browser.newPage();
    const writes = recordWrites(page);
    await openSite(page, `${platform.url}/login`);
    await expect(page.title()).resolves.toBe('Login');
    await expect(page.getAttribute('meta[name="description"]', 'content')).resolves.toMatch(/^Log in to CLIP IT/);
    await page.locator('main').getByRole('button', { name: 'Sign Up' }).click();
    const form = signupForm(page);
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Solana Wallet').fill('short');
    await form.getByLabel('Password', { exact: true }).fill('short');
    await form.getByLabel('Confirm Password', { exact: true }).fill('shorter1');
    await form.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'Please enter a valid email address',
      'Twitter handle is required',
      'Please enter a valid Solana wallet address',
      'Please select a role',
      'Password must be at least 8 characters',
      "Passwords don't match",
    ]) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    // The streamer-only claim code: upper case as typed.
    await form.getByLabel('Role').selectOption('streamer');
    await form.getByLabel('Claim Code (optional)').pressSequentially('claim-ab');
    expect(await form.getByLabel('Claim Code (optional)').inputValue()).toBe('CLAIM-AB');
    await form.getByLabel('Claim Code (optional)').fill('');
    await form.getByLabel('Role').selectOption('clipper');
    expect(writes).toEqual([]);
    // The last page of this test is the dashboard's; keep a picture of the form with its messages too.
    await page.screenshot({ path: join(SCREENSHOTS, 'login-sign-up-with-messages.png'), fullPage: true });

    await form.getByLabel('Email').fill(alice.email);
    await form.getByLabel('Display Name (optional)').fill('Alice Auth');
    await form.getByLabel('Twitter Handle').fill(alice.handle);
    await form.getByLabel('Solana Wallet').fill(TEST_WALLET);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByLabel('Confirm Password', { exact: true }).fill(password);
    const signup = page.waitForRequest((r) => r.url().endsWith('/api/auth/signup'));
    await form.getByRole('button', { name: 'Create Account' }).click();
    const sent = (await signup).postDataJSON() as Record<string, unknown>;
    expect(sent).toEqual({
      email: alice.email,
      displayName: 'Alice Auth',
      twitterHandle: alice.handle,
      walletAddress: TEST_WALLET,
      role: 'clipper',
      tokenLink: '',
      claimCode: '',
      password,
    });
    await expectToast(page, 'Account created successfully!', 'Welcome to CLIP IT. Redirecting...');
    await page.waitForURL(`${platform.url}/clippers/dashboard`);
    expect(writes).toEqual(['POST /api/auth/signup']);
    expect(await platform.count('SELECT count(*) FROM users WHERE twitter_username = $1', [alice.handle])).toBe(1);
  });

  it('logs out through /api/logout, then logs in again', async () => {
    await signInBrowser(browser.context, platform.url, await loginByApi(alice.handle, password));
    const page = await browser.newPage();
    await page.goto(`${platform.url}/api/logout`);
    await page.waitForURL(`${platform.url}/`);
    await openSite(page, `${platform.url}/connect`);
    await page.getByRole('heading', { name: 'Login Required' }).waitFor();

    await openSite(page, `${platform.url}/login`);
    const form = loginForm(page);
    await form.getByRole('button', { name: 'Log In' }).click();
    await form.getByText('Twitter handle is required', { exact: true }).waitFor();
    await form.getByText('Password is required', { exact: true }).waitFor();

    await form.getByLabel('Twitter Handle').fill(alice.handle);
    await form.getByLabel('Password', { exact: true }).fill('wrong-password');
    await form.getByRole('button', { name: 'Log In' }).click();
    await expectToast(page, 'Failed to log in', '401: Invalid Twitter handle or password');

    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByRole('button', { name: 'Show password' }).click();
    expect(await form.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await form.getByRole('button', { name: 'Log In' }).click();
    await expectToast(page, 'Logged in successfully!', `Welcome back, @${alice.handle}`);
    await page.waitForURL(`${platform.url}/clippers/dashboard`);
    const me = await page.request.get(`${platform.url}/api/user/me`);
    expect(me.status()).toBe(200);
  });

  /** The page a mailed link opens, on this platform (the link names PUBLIC_SITE_URL; its path and #token= are what count). */
  const linkOnPlatform = (link: string) => {
    const url = new URL(link);
    return `${platform.url}${url.pathname}${url.hash}`;
  };

  it('confirms the email address from the link sign-up mailed', async () => {
    const mail = await platform.mail.waitFor(alice.email);
    expect(mail.subject).toBe('Confirm your e-mail address for CLIP IT');
    const page = await browser.newPage();
    await openSite(page, linkOnPlatform(mail.links[0]!));
    await page.getByRole('button', { name: 'Confirm Email Address' }).click();
    await page.getByText('Email address confirmed', { exact: true }).waitFor();
  });

  it('resets the password through the Forgot Password dialog and the mailed link, and the new one logs in', async () => {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/login`);
    await loginForm(page).getByRole('button', { name: 'Forgot Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.waitFor();
    const next = 'second-password-2';
    await dialog.getByLabel('Twitter Handle').fill(alice.handle);
    await dialog.getByLabel('Email').fill(alice.email);
    await dialog.getByLabel('New Password', { exact: true }).fill(next);
    await dialog.getByLabel('Confirm New Password', { exact: true }).fill('not-the-same');
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await dialog.getByText("Passwords don't match", { exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'login-reset-password-dialog.png') });

    await dialog.getByLabel('Confirm New Password', { exact: true }).fill(next);
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    // Nothing is reset yet: the dialog says to check the email, and the link arrives there (ADR 0031).
    await expectToast(page, 'Check your email', RESET_LINK_MESSAGES.sent);
    await dialog.waitFor({ state: 'detached' });
    const mail = await platform.mail.waitFor(alice.email, { n: 2 });
    expect(mail.subject).toBe('Reset your CLIP IT password');

    const linkPage = await browser.newPage();
    await openSite(linkPage, linkOnPlatform(mail.links[0]!));
    await linkPage.getByRole('button', { name: 'Confirm New Password' }).click();
    await expectToast(linkPage, 'Password reset successfully!', 'You can now log in with your new password.');
    await linkPage.waitForURL(`${platform.url}/login`);
    await linkPage.close();
    password = next;

    // Reopened, it is empty again.
    await loginForm(page).getByRole('button', { name: 'Forgot Password' }).click();
    expect(await page.getByRole('dialog', { name: 'Reset Password' }).getByLabel('Twitter Handle').inputValue()).toBe('');
    await page.getByRole('dialog', { name: 'Reset Password' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await loginForm(page).getByLabel('Twitter Handle').fill(alice.handle);
    await loginForm(page).getByLabel('Password', { exact: true }).fill(password);
    await loginForm(page).getByRole('button', { name: 'Log In' }).click();
    await expectToast(page, 'Logged in successfully!', `Welcome back, @${alice.handle}`);
    await page.waitForURL(`${platform.url}/clippers/dashboard`);
  });

  it('/connect asks a signed-out visitor to log in with Twitter', async () => {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/connect`);
    await expect(page.title()).resolves.toBe('Connect Wallet');
    await page.getByRole('heading', { name: 'Login Required' }).waitFor();
    expect(await page.locator('main').getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    const redirect = page.waitForRequest((r) => new URL(r.url()).pathname === '/auth/twitter' && r.isNavigationRequest());
    await page.getByRole('button', { name: 'Login with Twitter' }).click();
    await redirect;
  });

  it('/connect takes a user without a wallet from Add Wallet Address to All Set!', async () => {
    const bob = newPerson('wallet');
    const sid = await signUpByApi(platform.url, bob, 'wallet-password');
    // Sign-up requires a wallet, so the account is made walletless in identity's database (as one made with
    // X is), and a first wallet needs no password (ADR 0032). A gateway may still hold the signed-up user
    // in its session cache for a moment, so the page's first GET /api/user/me is handed to it with
    // walletAddress null too. The PATCH goes to the real gateway, and the refetch after it is the real answer.
    await platform.db.query('UPDATE users SET wallet_address = NULL WHERE lower(twitter_username) = lower($1)', [bob.handle]);
    await signInBrowser(browser.context, platform.url, sid);
    const page = await browser.newPage();
    let hidden = false;
    await page.route('**/api/user/me', async (route) => {
      if (hidden) return route.continue();
      hidden = true;
      const response = await route.fetch();
      const user = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...user, walletAddress: null } });
    });
    await openSite(page, `${platform.url}/connect`);
    await page.getByRole('heading', { name: 'Add Wallet Address' }).waitFor();
    await page.getByText('Twitter Connected', { exact: true }).waitFor();
    await page.getByText(/This wallet receives your \$CLIP rewards/).waitFor();
    expect(await page.getByRole('link', { name: 'Skip for Now' }).getAttribute('href')).toBe('/leaderboard');

    const form = page.getByRole('form', { name: 'Add Wallet Address' });
    await form.getByRole('button', { name: 'Save Wallet Address' }).click();
    await form.getByText('Wallet address is required', { exact: true }).waitFor();
    await form.getByLabel('Solana Wallet Address').fill('0OIl-not-base58');
    await form.getByRole('button', { name: 'Save Wallet Address' }).click();
    await form.getByText('Please enter a valid Solana wallet address', { exact: true }).waitFor();

    await form.getByLabel('Solana Wallet Address').fill(OTHER_WALLET);
    const patch = page.waitForResponse((r) => r.url().endsWith('/api/user/profile') && r.request().method() === 'PATCH');
    await form.getByRole('button', { name: 'Save Wallet Address' }).click();
    expect((await patch).status()).toBe(200);
    await expectToast(page, 'Wallet Added!', 'Your wallet address has been saved. You can now submit posts to the leaderboard.');
    await page.getByRole('heading', { name: 'All Set!' }).waitFor();
    await page.getByText(OTHER_WALLET).waitFor();
    expect(await page.locator('main').getByRole('link', { name: 'Submit a Post' }).getAttribute('href')).toBe('/submit');
    expect(await page.locator('main').getByRole('link', { name: 'View Leaderboard' }).getAttribute('href')).toBe('/leaderboard');
    const me = (await (await page.request.get(`${platform.url}/api/user/me`)).json()) as { walletAddress: string };
    expect(me.walletAddress).toBe(OTHER_WALLET);
  });

  it('/clippers/auth shows the tiers and how it works, signs in with Twitter, and sends a signed-in user to the dashboard', async () => {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/clippers/auth`);
    await expect(page.title()).resolves.toBe('Clipper Sign In');
    const tiers = page.getByRole('list', { name: 'Clipper tiers' });
    await tiers.waitFor();
    expect(await tiers.getByRole('heading').allTextContents()).toEqual(['Bronze', 'Silver', 'Gold', 'Diamond']);
    for (const step of ['Create Clips', 'Get Approved', 'Earn & Level Up']) await page.getByRole('heading', { name: step }).waitFor();
    expect(
      await page
        .locator('main')
        .getByRole('link', { name: /Back to Home/ })
        .getAttribute('href'),
    ).toBe('/');
    const redirect = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/login' && r.isNavigationRequest());
    await page.getByRole('button', { name: 'Sign in with Twitter' }).click();
    await redirect;

    await signInBrowser(browser.context, platform.url, await loginByApi(alice.handle, password));
    const signedIn = await browser.newPage();
    await signedIn.goto(`${platform.url}/clippers/auth`);
    await signedIn.waitForURL(`${platform.url}/clippers/dashboard`);
  });

  for (const [name, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    it(`${name}: with an X app, the buttons of /clippers/auth, /login and /connect start X's round trip`, async () => {
      for (const [path, button, start] of [
        ['/clippers/auth', 'Sign in with Twitter', '/api/login'],
        ['/login', 'Sign in with X', '/api/login'],
        ['/connect', 'Login with Twitter', '/auth/twitter'],
      ] as const) {
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        const providers = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/providers');
        await openSite(page, `${platform.url}${path}`);
        expect(await (await providers).json()).toEqual({ x: { available: true } });
        const redirect = page.waitForRequest((r) => new URL(r.url()).pathname === start && r.isNavigationRequest());
        await page.locator('main').getByRole('button', { name: button }).click();
        await redirect;
        await page.close();
      }
    });
  }

  async function loginByApi(handle: string, pw: string): Promise<string> {
    const res = await fetch(`${platform.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ twitterHandle: handle, password: pw }),
    });
    expect(res.status).toBe(200);
    return /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  }
});
