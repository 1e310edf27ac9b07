// The admin area in headless Chromium against the real platform (identity, submissions, admin, campaigns,
// the media worker and the gateway serving the production builds): the password gate (a wrong password,
// then the right one), a clipper's clip with a real video processed by the media worker, approved and
// added to the feed from the page and played in its <video>, another rejected with a reason, a placeholder
// streamer created and its claim code copied, the job applications read, and the System tab's health samples.
import { MediaTools } from '@clipit/media';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { expectToast, newPerson, openSite, signUpByApi, toasts } from './support/site.js';

const SESSION_EXPIRED = 'Your admin session has expired. Enter the password again.';
const tools = new MediaTools({ ffmpegPath: process.env['FFMPEG_PATH'] ?? 'ffmpeg', ffprobePath: process.env['FFPROBE_PATH'] ?? 'ffprobe' });

/** What the test reads of the page's <video> (the tests are type-checked without the DOM's types). */
interface PlayableVideo {
  readyState: number;
  currentSrc: string;
  muted: boolean;
  error: { code: number; message: string } | null;
  play(): Promise<void>;
  addEventListener(type: string, listener: () => void): void;
}

/** Evaluates an expression in the page (a string: these tests have no DOM types to write it as a function). */
const inPage = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

/** The fields of a clipper's own submission (GET /api/submissions) this test waits on. */
interface OwnSubmission {
  id: string;
  isProcessing: boolean;
  videoState: string;
  videoUrl: string | null;
}

describe('admin area in a browser', () => {
  const browser = useBrowser();
  let platform: Platform;
  let clipsDir = '';
  let cookie = '';
  const stamp = Date.now().toString(36);
  const videoClip = `Admin video clip ${stamp}`;
  const clipToReject = `Admin clip to reject ${stamp}`;
  const applicant = `Grace Applicant ${stamp}`;

  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(platform.url, path, init));
  const postJson = (path: string, body: unknown) =>
    api(path, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });

  async function submit(name: string): Promise<string> {
    const res = await postJson('/api/submissions', {
      name,
      url: `https://x.com/clipper/status/${Date.now()}${Math.floor(Math.random() * 1000)}`,
      walletAddress: '',
      additionalInfo: `Notes for ${name}`,
    });
    if (res.status !== 201) throw new Error(`submission refused: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    // Admin samples the platform's health every second here, for the System tab (every minute by default).
    platform = await startPlatform({}, { ADMIN_SYSTEM_METRICS_INTERVAL_MS: '1000' }, { mediaWorker: true });
    clipsDir = await mkdtemp(join(tmpdir(), 'clipit-browser-admin-'));
    const clip = join(clipsDir, 'clip.mp4');
    // A short portrait clip with sound: few frames keep the worker's transcode quick.
    await tools.synthesizeClip({ path: clip, durationSeconds: 3, width: 360, height: 640, withAudio: true, fps: 10, keyframeSeconds: 0.5 });

    cookie = `clipit.sid=${await signUpByApi(platform.url, newPerson('adm'), 'a-good-password')}`;
    await submit(clipToReject);
    const id = await submit(videoClip);
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(await readFile(clip))], { type: 'video/mp4' }), 'clip.mp4');
    form.append('submissionId', id);
    const upload = await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie }, body: form });
    if (upload.status !== 200) throw new Error(`video upload refused: ${upload.status} ${await upload.text()}`);
    await upload.body?.cancel();
    // The media worker's verdict: a processed, playable video.
    const processed = await waitFor(
      async () => {
        const list = (await (await api('/api/submissions', { headers: { cookie } })).json()) as OwnSubmission[];
        const found = list.find((s) => s.id === id);
        return found && !found.isProcessing ? found : undefined;
      },
      90_000,
      'the media worker to process the clip',
    );
    expect(processed).toMatchObject({ videoState: 'ready', videoUrl: expect.stringMatching(/\.mp4$/) });

    // A visitor's job application for the Job Applications tab.
    const application = await postJson('/api/clipper-applications', {
      fullName: applicant,
      email: `grace.${stamp}@example.com`,
      socialMediaHandles: '@grace on X',
      availabilityHours: 20,
      experience: 'Three years of cutting stream highlights into vertical clips.',
      whyJoin: 'I clip every day anyway and want to be paid per approved clip.',
      portfolioLinks: 'https://example.com/reel',
    });
    if (application.status !== 201) throw new Error(`application refused: ${application.status} ${await application.text()}`);
    await application.body?.cancel();
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    if (clipsDir) await rm(clipsDir, { recursive: true, force: true });
  });

  /** A picture of the whole page as it is now (from the top: the frame's header is sticky). */
  const shot = async (page: Page, name: string) => {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `admin-${name}.png`), fullPage: true });
  };

  /** Opens /admin and passes the gate (sessionStorage is per tab: every new page starts locked). */
  async function unlocked(): Promise<Page> {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/admin`);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    return page;
  }

  const entry = (page: Page, name: string): Locator =>
    page.locator('article').filter({ has: page.getByRole('heading', { name, exact: true }) });

  it('the gate refuses a wrong password, opens for the right one and keeps only the token; Lock closes it again', async () => {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/admin`);
    await expect(page.title()).resolves.toBe('Admin');
    await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
    await page.getByText('Enter password to continue').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect password' }).waitFor();
    await shot(page, 'gate-incorrect-password');

    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    const figures = page.getByRole('region', { name: 'Submission figures' });
    await figures.getByText('Total Submissions').waitFor();
    // Both clips of the clipper, and the visitor's application, counted on their tabs.
    await page.getByRole('tab', { name: 'Post Submissions 2', exact: true }).waitFor();
    await page.getByRole('tab', { name: /^Job Applications [1-9]/ }).waitFor();
    await figures.getByText('2', { exact: true }).first().waitFor();
    const stored = await inPage<string>(page, 'JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })');
    expect(stored).toContain('"token');
    expect(stored).not.toContain(E2E_ADMIN_PASSWORD);
    await shot(page, 'dashboard');
    // On a phone the same page stacks into one column.
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'dashboard-phone');
    if (desktop) await page.setViewportSize(desktop);

    await page.getByRole('button', { name: 'Lock' }).click();
    await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
    expect(await inPage<number>(page, 'sessionStorage.length')).toBe(0);
    // A token the server no longer takes ends the session with the message.
    const forged = JSON.stringify({ token: 'v1.forged', expiresAt: new Date(Date.now() + 600_000).toISOString() });
    await page.evaluate(`sessionStorage.setItem('clipit-admin-session', ${JSON.stringify(forged)})`);
    await page.reload();
    await page.getByText(SESSION_EXPIRED).waitFor();
    await page.getByRole('heading', { name: 'Admin Access' }).waitFor();
  });

  it('approves a processed clip and adds it to the feed; its video plays in the row when asked for', async () => {
    const page = await unlocked();
    const card = entry(page, videoClip);
    await card.getByText('Pending').waitFor();
    // A compact row: the video is a poster until asked for.
    await card.getByRole('button', { name: `Play the video of ${videoClip}` }).waitFor();
    expect(await card.locator('video').count()).toBe(0);
    const approve = card.getByRole('button', { name: 'Approve & Add to Feed' });
    const sent = page.waitForRequest((r) => r.url().endsWith('/approve-and-add-to-feed'));
    await approve.click();
    expect((await sent).headers()['authorization']).toMatch(/^Bearer v1\./);
    await expectToast(page, 'Submission Approved and Added to Feed', videoClip);
    await card.getByText('In Feed', { exact: true }).waitFor();
    await card.getByText('Approved', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Remove from Feed' }).waitFor();

    await card.getByRole('button', { name: `Play the video of ${videoClip}` }).click();
    const video = card.locator('video');
    const played = await video.evaluate((element) => {
      const v = element as unknown as PlayableVideo;
      return new Promise<{ readyState: number; src: string }>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no data after 20 s (readyState ${v.readyState}, error ${v.error?.code ?? 'none'})`)),
          20_000,
        );
        const loaded = () => {
          clearTimeout(timer);
          resolve({ readyState: v.readyState, src: v.currentSrc });
        };
        // Asked for, it starts playing at once (muted): its data may be in before this looks.
        if (v.readyState >= 2) loaded();
        v.addEventListener('loadeddata', loaded);
        v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code ?? '?'}: ${v.error?.message ?? ''}`)));
        v.muted = true;
        void v.play().catch(() => undefined);
      });
    });
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.src).toMatch(/\/media\/videos\/.+\.mp4$/);
    await shot(page, 'approved-in-feed');
  });

  it('rejects a clip with a reason, which the entry then shows', async () => {
    const page = await unlocked();
    const card = entry(page, clipToReject);
    await card.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject Submission' });
    await dialog.getByLabel('Reason (optional)').fill('Not a clip of a tagged streamer');
    await dialog.getByText('31/500 characters').waitFor();
    await shot(page, 'reject-dialog');
    const sent = page.waitForRequest((r) => r.url().endsWith('/reject'));
    await dialog.getByRole('button', { name: 'Reject Submission' }).click();
    expect((await sent).postDataJSON()).toEqual({ reason: 'Not a clip of a tagged streamer' });
    await expectToast(page, 'Submission Rejected', clipToReject);
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Rejected', { exact: true }).waitFor();
    // Nothing left to do with it: the row offers only its details, where the reason is.
    await card.getByRole('button', { name: 'Details' }).click();
    await card.getByText('Not a clip of a tagged streamer').waitFor();
    expect(await card.getByRole('button').allTextContents()).toEqual(['Hide details']);
    await shot(page, 'rejected-with-reason');
  });

  it('creates a placeholder streamer and copies its claim code', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
    const page = await unlocked();
    await page.getByRole('tab', { name: /Placeholder Streamers/ }).click();
    const form = page.getByRole('form', { name: 'Create placeholder streamer' });
    await form.getByRole('button', { name: 'Create Placeholder' }).click();
    await form.getByText('Display name is required').waitFor();
    await form.getByText('Twitter username is required').waitFor();

    const handle = `ph_${stamp}`.slice(0, 15);
    await form.getByLabel('Display Name').fill('Placeholder Streamer');
    await form.getByLabel('Twitter Username').fill(`@${handle}`);
    await form.getByLabel('Streamer Multiplier').fill('1.25');
    await form.getByRole('button', { name: 'Create Placeholder' }).click();
    await toasts(page).getByText('Placeholder Streamer Created', { exact: true }).waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'Share this claim code' });
    const code = (await notice.locator('code').textContent()) ?? '';
    expect(code).toMatch(/\S{6,}/);
    await toasts(page).getByText(`Claim code: ${code}`, { exact: true }).waitFor();
    const listed = page
      .getByRole('list', { name: 'Placeholder streamers' })
      .locator('article')
      .filter({ hasText: `@${handle}` });
    await listed.getByText('1.25x').waitFor();
    await listed.getByText('Unclaimed').waitFor();

    await notice.getByRole('button', { name: `Copy claim code ${code}` }).click();
    await expectToast(page, 'Copied to clipboard', code);
    // The site's Permissions-Policy denies reading the clipboard (it only writes it, ADR 0036), so the
    // copied text is read in a document of the same origin that carries no page policy: a health answer.
    const reader = await browser.context.newPage();
    await reader.goto(`${platform.url}/health/live`);
    await reader.bringToFront();
    expect(await inPage<string>(reader, 'navigator.clipboard.readText()')).toBe(code);
    await reader.close();
    await page.bringToFront();
    await shot(page, 'placeholder-created');
  });

  it('reads the job applications, with no action offered', async () => {
    const page = await unlocked();
    await page.getByRole('tab', { name: /Job Applications/ }).click();
    const list = page.getByRole('list', { name: 'Job applications' });
    const card = list.locator('article').filter({ has: page.getByRole('heading', { name: applicant }) });
    await card.getByText(`grace.${stamp}@example.com`).waitFor();
    await card.getByText('20 hours per week').waitFor();
    await card.getByText('Pending').waitFor();
    await card.getByText('Three years of cutting stream highlights into vertical clips.').waitFor();
    expect(await list.getByRole('button').count()).toBe(0);
    await shot(page, 'job-applications');
  });
  it("shows the platform's health on the System tab: each metric's value, status and 24-hour chart, on a desktop and a phone", async () => {
    const page = await unlocked();
    await page.getByRole('tab', { name: 'System', exact: true }).click();
    const readiness = page.getByRole('region', { name: 'Service readiness' });
    const identity = readiness.locator('article').filter({ has: page.getByRole('heading', { name: 'identity', exact: true }) });
    await identity.getByText('Ready', { exact: true }).waitFor();
    await identity.getByText('OK', { exact: true }).waitFor();
    await identity.getByRole('img', { name: 'identity: last 24 hours' }).waitFor();
    expect(await identity.locator('svg path').getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+/);
    const media = page
      .getByRole('region', { name: 'Queue depth' })
      .locator('article')
      .filter({ has: page.getByRole('heading', { name: 'media' }) });
    await media.getByText(/^\d+ jobs$/).waitFor();
    await media.getByText('Threshold: 100 jobs (critical at 1,000)').waitFor();
    await page.getByRole('region', { name: 'Dead-lettered events' }).getByText('0 events', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Consumer lag' }).getByRole('heading', { name: 'feed', exact: true }).waitFor();
    await shot(page, 'system');

    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await identity.getByText('Ready', { exact: true }).waitFor();
    // One column on a phone: nothing wider than the screen.
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect((await identity.boundingBox())!.width).toBeLessThanOrEqual(390);
    await shot(page, 'system-phone');
    if (desktop) await page.setViewportSize(desktop);
  });
});
