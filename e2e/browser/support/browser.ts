// Headless Chromium for the browser tests: Debian's chromium (playwright-core downloads no browser),
// a fresh profile per test file, and a screenshot of every test's last page in artifacts/screenshots/.
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'artifacts', 'screenshots');

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserHandle {
  readonly context: BrowserContext;
  /**
   * A new tab; the last one opened in a test is the one its screenshot shows. An error a page throws
   * and does not catch fails the test it happened in.
   */
  newPage(): Promise<Page>;
}

const fileNameOf = (testName: string) =>
  testName
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 150) || 'test';

/**
 * Registers the hooks of one test file: Chromium up before its tests; after each, a screenshot and no
 * uncaught page error; closed after all.
 */
export function useBrowser(): BrowserHandle {
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  let lastPage: Page | undefined;
  /** Every tab the running test opened: all closed after it, so none keeps rendering, playing or polling through the next tests. */
  const opened: Page[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), 'clipit-chromium-'));
    // launch() refuses --user-data-dir; a persistent context on a temp dir is a fresh profile.
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    context.setDefaultTimeout(15_000);
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  afterEach(async () => {
    const page = lastPage;
    lastPage = undefined;
    if (page && !page.isClosed()) {
      const name = fileNameOf(expect.getState().currentTestName ?? 'test');
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }).catch(() => undefined);
    }
    for (const open of opened.splice(0)) if (!open.isClosed()) await open.close();
    expect({ uncaughtPageErrors: pageErrors.splice(0) }).toEqual({ uncaughtPageErrors: [] });
  });

  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  return {
    get context() {
      if (!context) throw new Error('the browser is not started yet (use it inside a test or hook)');
      return context;
    },
    async newPage() {
      if (!context) throw new Error('the browser is not started yet (use it inside a test or hook)');
      lastPage = await context.newPage();
      opened.push(lastPage);
      lastPage.on('pageerror', (err) => pageErrors.push(err.message));
      return lastPage;
    },
  };
}
