// Small helpers the screen tests share: open a page of the site once the shell has loaded the remotes,
// read the toast region, create an account through the API and sign the browser in with its cookie.
import type { BrowserContext, Locator, Page } from 'playwright-core';

/**
 * Waits until `expression` (JavaScript run in the page) is truthy. Playwright polls a string predicate
 * with eval inside the page, which the site's Content-Security-Policy refuses (no 'unsafe-eval',
 * docs/adr/0036); a function's source is compiled through the DevTools protocol instead, outside the
 * page's policy. So the expression becomes a function here (written as text: these tests are
 * type-checked without the DOM's types).
 */
export async function untilInPage(page: Page, expression: string, options: { timeout?: number } = {}): Promise<void> {
  // Compiled in Node and sent as source: never eval'd in the page.
  const predicate = new Function(`return (${expression});`) as () => unknown;
  await page.waitForFunction(predicate, undefined, options);
}

export const REMOTES = ['public', 'dashboard', 'admin'] as const;
export const TEST_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

/**
 * Goes to `url` and waits until its page is there: the remote screen that owns it has rendered (the
 * shell's `clipit:screen-rendered` mark), or, for a path no remote claims, the shell's own page once
 * every remote is loaded. (The shell loads the other remotes only when the browser is idle.)
 */
export async function openSite(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await untilInPage(
    page,
    `performance.getEntriesByName('clipit:screen-rendered').length > 0 || ${JSON.stringify(REMOTES)}.every((name) => document.querySelector('meta[name="clipit-remote:' + name + '"]'))`,
    { timeout: 30_000 },
  );
}

/** The notification region the shell's ToastProvider renders. */
export const toasts = (page: Page): Locator => page.getByRole('region', { name: 'Notifications (F8)' });

/** Waits for a toast with this title and description. */
export async function expectToast(page: Page, title: string, description: string): Promise<void> {
  const region = toasts(page);
  await region.getByText(title, { exact: true }).waitFor();
  await region.getByText(description, { exact: true }).waitFor();
}

let seq = 0;
/** A fresh handle and email (handles are at most 15 characters). */
export function newPerson(prefix: string): { handle: string; email: string } {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return { handle: `${prefix}_${tag}`.slice(0, 15), email: `${prefix}${tag}@example.com` };
}

/** Signs up through the gateway's API and returns the session id it issued. */
export async function signUpByApi(baseUrl: string, person: { handle: string; email: string }, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: person.email,
      displayName: '',
      twitterHandle: person.handle,
      walletAddress: TEST_WALLET,
      role: 'clipper',
      tokenLink: '',
      claimCode: '',
      password,
    }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!sid) throw new Error('sign-up set no session cookie');
  return sid;
}

/** Puts a session cookie in the browser, as if it had signed in itself. */
export async function signInBrowser(context: BrowserContext, baseUrl: string, sid: string): Promise<void> {
  await context.addCookies([{ name: 'clipit.sid', value: sid, url: baseUrl }]);
}
