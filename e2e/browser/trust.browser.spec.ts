// Trust (issue 36) in headless Chromium against the real platform with the media worker: a clipper's clip and
// another clipper's re-upload of it, fingerprinted and matched by the worker; the re-upload approved while
// flagged, so rewards holds its earning. The moderation queue filtered to matched clips shows the flagged row
// (badges, the match, the hold); the re-uploader's dashboard shows the held earning with its reason; the
// re-uploader appeals the hold from the dashboard, the admin overturns the appeal on the Appeals tab, and the
// dashboard shows the decided appeal and the earning released. Screenshots of each go to the report folder.
import { synthesizeClip } from '@clipit/media';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { openSite, signInBrowser } from './support/site.js';

const DESKTOP = { width: 1280, height: 900 };
const REUPLOAD_REASON = 'Its video matches a clip submitted earlier by another clipper.';
const APPEAL_TEXT = 'I cut this from the same stream myself; the streamer shared the raw footage with every clipper.';
const OVERTURN_REASON = 'The streamer confirms both clippers had the raw footage.';

interface AdminItem {
  id: string;
  matches: unknown[] | null;
  hold: { status: string } | null;
}

describe('trust: a re-upload flagged, its earning held, appealed and released, in a browser', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let dir = '';
  let video: Uint8Array;
  let adminToken = '';
  let reuploader: Account;
  let copy = '';
  const stamp = Date.now().toString(36);
  const copyName = `Re-uploaded clip ${stamp}`;

  /** A submission of `who` with the clip uploaded (the media worker processes and fingerprints it). */
  async function clipBy(who: Account, name: string): Promise<string> {
    const id = await seeder.submit(who, { name, withoutVideo: true });
    const form = new FormData();
    form.append('video', new Blob([video], { type: 'video/mp4' }), 'clip.mp4');
    form.append('submissionId', id);
    const res = await seeder.api('/api/submissions/upload-video', { method: 'POST', body: form, cookie: who.cookie });
    if (res.status !== 200) throw new Error(`upload refused: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
    return id;
  }

  const adminItem = (id: string, ready: (item: AdminItem) => boolean, what: string) =>
    waitFor(
      async () => {
        const res = await seeder.api('/api/admin/submissions?limit=200', { headers: { authorization: `Bearer ${adminToken}` } });
        const found = ((await res.json()) as { submissions: AdminItem[] }).submissions.find((s) => s.id === id);
        return found && ready(found) ? found : undefined;
      },
      120_000,
      what,
    );

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    dir = await mkdtemp(join(tmpdir(), 'clipit-browser-trust-'));
    const file = join(dir, 'clip.mp4');
    // Scenes with sound, few frames: quick to process, and every clipper below uploads these same pictures.
    await synthesizeClip({ path: file, durationSeconds: 6, width: 720, height: 1280, withAudio: true, fps: 10 });
    video = new Uint8Array(await readFile(file));
    const verified = await seeder.api('/api/admin/verify-password', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: E2E_ADMIN_PASSWORD }),
    });
    adminToken = ((await verified.json()) as { token: string }).token;

    const original = await clipBy(await seeder.signUp('clipper'), `Original clip ${stamp}`);
    await adminItem(original, (s) => s.matches !== null, 'the original fingerprinted');
    reuploader = await seeder.signUp('clipper');
    copy = await clipBy(reuploader, copyName);
    await adminItem(copy, (s) => (s.matches ?? []).length > 0, 'the re-upload matched to the original');
    await seeder.moderate(original, 'approve');
    await seeder.moderate(copy, 'approve');
    await adminItem(copy, (s) => s.hold?.status === 'held', 'the re-upload’s earning held');
  }, 300_000);

  afterAll(async () => {
    await seeder?.close();
    await platform?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const shot = async (page: Page, name: string) => {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `trust-${name}.png`), fullPage: true });
  };

  async function adminPage(): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewportSize(DESKTOP);
    await openSite(page, `${platform.url}/admin`);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    return page;
  }

  async function dashboard(search: string): Promise<Page> {
    await browser.context.clearCookies();
    await signInBrowser(browser.context, platform.url, reuploader.sid);
    const page = await browser.newPage();
    await page.setViewportSize(DESKTOP);
    await openSite(page, `${platform.url}/clippers/dashboard${search}`);
    await page.getByRole('heading', { level: 1, name: `Welcome back, ${reuploader.displayName}!` }).waitFor();
    return page;
  }

  it('the moderation queue filtered to matched clips shows the flagged row: the match, the hold, the details on demand', async () => {
    const page = await adminPage();
    await page.getByRole('checkbox', { name: 'Matched an earlier clip' }).check();
    const row = page.locator('article').filter({ has: page.getByRole('heading', { name: copyName, exact: true }) });
    await row.getByText('Possible re-upload', { exact: true }).waitFor();
    await row.getByText('Earning held', { exact: true }).waitFor();
    // Only matched clips are listed.
    const titles = await page.getByRole('list', { name: 'Post submissions' }).getByRole('heading').allTextContents();
    expect(titles).toEqual([copyName]);
    expect(await row.locator('video').count()).toBe(0);
    await row.getByRole('button', { name: 'Details' }).click();
    await row.getByText(REUPLOAD_REASON).first().waitFor();
    await row.getByRole('button', { name: 'Release' }).waitFor();
    await shot(page, 'flagged-card');
  });

  it('the re-uploader’s dashboard shows the held earning with its reason, and the Held total', async () => {
    const page = await dashboard('?tab=earnings');
    const note = page.getByRole('note', { name: `Why ${copyName} is held` });
    await note.getByText(REUPLOAD_REASON).waitFor();
    await page.getByRole('list', { name: 'Earnings' }).getByText('Held', { exact: true }).first().waitFor();
    await shot(page, 'held-earning');
  });

  it('the re-uploader appeals the hold; the admin overturns it on the Appeals tab; the dashboard shows the decision', async () => {
    const page = await dashboard('?tab=submissions');
    await page.getByRole('button', { name: `Appeal ${copyName}` }).click();
    const form = page.getByRole('form', { name: 'Appeal the held earning' });
    await form.getByLabel('Why should the decision change?').fill(APPEAL_TEXT);
    const sent = page.waitForRequest((r) => r.url().endsWith('/appeal') && r.method() === 'POST');
    await form
      .getByRole('button', { name: /appeal/i })
      .last()
      .click();
    expect((await sent).postDataJSON()).toEqual({ text: APPEAL_TEXT });
    await page.getByText('Appeal pending').first().waitFor();

    const admin = await adminPage();
    await admin.getByRole('tab', { name: /Appeals/ }).click();
    const appeal = admin.locator('article').filter({ hasText: APPEAL_TEXT });
    await appeal.getByRole('button', { name: 'Overturn' }).click();
    const decide = admin.getByRole('form', { name: 'Overturn the decision' });
    await decide.getByLabel('Reason').fill(OVERTURN_REASON);
    await decide.getByRole('button', { name: 'Overturn' }).click();
    await appeal.locator('.clip-badge', { hasText: 'Overturned' }).waitFor();
    await shot(admin, 'decided-appeal-admin');

    // The earning is released (rewards hears appeal.decided) and the clipper reads the decision.
    await adminItem(copy, (s) => s.hold?.status === 'pending', 'the earning released');
    const after = await dashboard('?tab=submissions');
    await after.getByText(`Appeal overturned: ${OVERTURN_REASON}`).first().waitFor();
    await shot(after, 'decided-appeal');
  });
});
