// The site in headless Chromium against the real platform (identity, the gateway serving the production
// builds): the shell finds the remotes through GET /remotes.json and loads all three; unknown paths get
// the 404 page; a remote that cannot be reached is said so inside the frame and Retry brings it back;
// hashed assets are cacheable for good and the HTML is not.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePorts, waitFor } from '@clipit/testing';
import { fileURLToPath } from 'node:url';
import type { Page, Response, Route } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { staticServer, type StaticServer } from './support/static-server.js';

const REMOTES = ['public', 'dashboard', 'admin'];
const UNAVAILABLE = 'This part of CLIP IT could not be loaded.';
const PUBLIC_BUILD = fileURLToPath(new URL('../../frontends/public/dist', import.meta.url));

/** The build ids the shell published for the remotes it loaded (`<meta name="clipit-remote:<name>">`). */
async function loadedRemotes(page: Page): Promise<Record<string, string | null>> {
  const ids: Record<string, string | null> = {};
  for (const name of REMOTES) {
    const meta = page.locator(`meta[name="clipit-remote:${name}"]`);
    ids[name] = (await meta.count()) > 0 ? await meta.getAttribute('content') : null;
  }
  return ids;
}

async function waitForRemotes(page: Page, names: string[]): Promise<void> {
  for (const name of names) await page.locator(`meta[name="clipit-remote:${name}"]`).waitFor({ state: 'attached' });
}

describe('the site in a browser', () => {
  const browser = useBrowser();
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('loads the shell and all three remotes from /remotes.json, and shows the 404 page for an unknown path', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${platform.url}/nope`);
    await waitForRemotes(page, REMOTES);
    const ids = await loadedRemotes(page);
    for (const name of REMOTES) expect({ name, id: ids[name] }).toEqual({ name, id: expect.stringMatching(/\S/) });
    await expect(page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).resolves.toBe(true);
    await expect(page.title()).resolves.toBe('404 Page Not Found');
    expect(await page.locator('main').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('loads only the remote that owns the page before showing it, and the others once the browser is idle', async () => {
    const page = await browser.newPage();
    // The other remotes' code held back: the page must show without it.
    const held: Route[] = [];
    await page.route(/\/remotes\/(dashboard|admin)\/remoteEntry\.js$/, (route) => void held.push(route));
    const entries: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/remoteEntry.js')) entries.push(new URL(r.url()).pathname);
    });
    await page.goto(`${platform.url}/connect`);
    await page.getByRole('heading', { name: 'Login Required' }).waitFor();
    await waitForRemotes(page, ['public']);
    expect(entries[0]).toBe('/remotes/public/remoteEntry.js');
    // Idle: the rest are asked for, and come in once they answer.
    await waitFor(() => (held.length > 0 ? true : undefined), 10_000, 'the other remotes asked for when idle');
    await waitFor(
      async () => {
        while (held.length > 0) await held.shift()!.continue();
        return Object.values(await loadedRemotes(page)).every((id) => id !== null) ? true : undefined;
      },
      10_000,
      'every remote loaded',
    );
    expect([...entries].sort()).toEqual([
      '/remotes/admin/remoteEntry.js',
      '/remotes/dashboard/remoteEntry.js',
      '/remotes/public/remoteEntry.js',
    ]);
  });

  it('has the browser fetch the shell’s startup files, /remotes.json and the page’s remote files with the HTML, each once', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(platform.url)) requested.push(new URL(r.url()).pathname);
    });
    const document = await page.goto(`${platform.url}/client-services`);
    const preloads = [...(document?.headers()['link'] ?? '').matchAll(/<([^>]+)>; rel=preload; as=(\w+)/g)].map((m): [string, string] => [
      m[1]!,
      m[2]!,
    ]);
    // The shell's own code first (its entry and stylesheet), then what it reads: /remotes.json (carrying
    // the manifests of the remotes served here, so none is fetched), then the page's remote.
    const documents = preloads.findIndex(([href]) => href === '/remotes.json');
    expect(preloads.slice(0, documents).map(([href, as]) => [href.replace(/\.[0-9a-f]{8}\./, '.*.'), as])).toEqual([
      ['/css/main.*.css', 'style'],
      ['/js/main.*.js', 'script'],
    ]);
    expect(preloads.slice(documents, documents + 2)).toEqual([
      ['/remotes.json', 'fetch'],
      ['/remotes/public/remoteEntry.js', 'script'],
    ]);
    expect(preloads.some(([href]) => href.startsWith('/remotes/dashboard/') || href.startsWith('/remotes/admin/'))).toBe(false);
    // The page's own screen: a script and its stylesheet of the public remote.
    expect(
      preloads
        .filter(([href]) => /^\/remotes\/public\/(js|css)\/\d+\.[0-9a-f]{8}\.(js|css)$/.test(href))
        .map(([, as]) => as)
        .sort(),
    ).toEqual(['script', 'style']);
    await page.getByRole('heading', { name: 'Client Services', level: 1 }).waitFor();
    await waitForRemotes(page, REMOTES);
    // Each preloaded file was downloaded once: the page used what the header fetched; no manifest was.
    for (const [href] of preloads) expect({ href, times: requested.filter((path) => path === href).length }).toEqual({ href, times: 1 });
    expect(requested.filter((path) => path.endsWith('/mf-manifest.json'))).toEqual([]);
  });

  it('serves the shell at / and for any page path (the shell’s router decides what is there)', async () => {
    const page = await browser.newPage();
    for (const path of ['/', '/login']) {
      const response = await page.goto(`${platform.url}${path}`);
      expect(response?.status()).toBe(200);
      await waitForRemotes(page, REMOTES);
      // The shell's page whatever the path: its frame, with the page a remote claims or the 404 page in it.
      await page.locator('header').waitFor();
      expect(await page.locator('main').count()).toBe(1);
    }
  });

  it('caches hashed assets for good and revalidates the HTML, remoteEntry.js, mf-manifest.json and /remotes.json', async () => {
    const page = await browser.newPage();
    const responses: Response[] = [];
    page.on('response', (r) => responses.push(r));
    const document = await page.goto(`${platform.url}/feed`);
    await waitForRemotes(page, REMOTES);
    expect(document?.headers()['cache-control']).toBe('no-cache');
    expect(document?.headers()['content-type']).toBe('text/html; charset=utf-8');

    const ours = responses.filter((r) => r.url().startsWith(platform.url));
    const cacheOf = (r: Response) => ({ path: new URL(r.url()).pathname, cache: r.headers()['cache-control'] });
    const scripts = ours.filter((r) => r.request().resourceType() === 'script');
    const entries = scripts.filter((r) => r.url().endsWith('/remoteEntry.js'));
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(entries.map(cacheOf).sort(byPath)).toEqual(
      ['admin', 'dashboard', 'public'].map((name) => ({ path: `/remotes/${name}/remoteEntry.js`, cache: 'no-cache' })),
    );
    const hashed = scripts.filter((r) => !r.url().endsWith('/remoteEntry.js'));
    expect(hashed.length).toBeGreaterThan(3);
    for (const r of hashed) {
      expect(cacheOf(r)).toEqual({ path: expect.stringMatching(/\.[0-9a-f]{8}\.js$/), cache: 'public, max-age=31536000, immutable' });
    }
    // The manifests come inside /remotes.json; fetched on their own (a shell elsewhere, a retry) they are revalidated too.
    expect(ours.filter((r) => r.url().endsWith('/mf-manifest.json'))).toEqual([]);
    for (const name of ['admin', 'dashboard', 'public']) {
      const manifest = await page.request.get(`${platform.url}/remotes/${name}/mf-manifest.json`);
      expect({ name, cache: manifest.headers()['cache-control'] }).toEqual({ name, cache: 'no-cache' });
    }
    expect(ours.filter((r) => r.url().endsWith('/remotes.json')).map(cacheOf)).toEqual([{ path: '/remotes.json', cache: 'no-store' }]);
  });

  describe('a remote that cannot be reached', () => {
    let remote: StaticServer;
    let gatewayUrl: string;

    beforeAll(async () => {
      const [port] = (await freePorts(1)) as [number];
      // The public remote from another origin, as a CDN would serve it; nothing listens there yet.
      remote = staticServer(PUBLIC_BUILD, port);
      const gateway = await platform.startGateway({ FRONTEND_REMOTES: JSON.stringify({ public: `${remote.url}/mf-manifest.json` }) });
      gatewayUrl = gateway.httpUrl;
    });

    afterAll(async () => {
      await remote?.stop();
    });

    it('is said so inside the frame, with Retry, which brings it in once it is back', async () => {
      const page = await browser.newPage();
      await page.goto(`${gatewayUrl}/nope`);
      await page.getByText(UNAVAILABLE).waitFor();
      const retry = page.getByRole('button', { name: 'Retry' });
      expect(await retry.isVisible()).toBe(true);
      expect(await page.locator('main').getByText(UNAVAILABLE).count()).toBe(1);
      await waitForRemotes(page, ['dashboard', 'admin']);
      expect((await loadedRemotes(page)).public).toBeNull();

      // Still down: Retry tries again and says so again.
      await retry.click();
      await page.getByText(UNAVAILABLE).waitFor();
      await expect(page.getByRole('button', { name: 'Retry' }).isEnabled()).resolves.toBe(true);

      await remote.start();
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      await waitForRemotes(page, REMOTES);
      expect(await page.getByText(UNAVAILABLE).count()).toBe(0);
      await expect(page.title()).resolves.toBe('404 Page Not Found');
    });
  });
});
