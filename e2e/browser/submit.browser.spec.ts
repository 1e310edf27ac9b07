// /submit in headless Chromium against the real platform (media worker included): the form's checks
// say what is wrong without calling, a real video goes up with a moving progress bar (the upload is
// throttled through the DevTools protocol so the browser reports bytes as they go), the page follows
// the video until the media worker has made it ready, a file the worker refuses shows its reason, and
// a visitor who is not signed in is told to log in.
import { synthesizeClip } from '@clipit/media';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { clipSeeder, type Account, type ClipSeeder } from './support/clips.js';
import { expectToast, openSite, signInBrowser } from './support/site.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;
/** Bytes per second the browser may upload while a video goes up: slow enough to see it move. */
const UPLOAD_BYTES_PER_SECOND = 96 * 1024;
/** Run in the page (the tests' TypeScript has no DOM): records each value of the progress bar and its text. */
const RECORD_PROGRESS = `(() => {
  const seen = { values: [], texts: [] };
  window.uploadSeen = seen;
  new MutationObserver(() => {
    const value = document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
    if (value && seen.values[seen.values.length - 1] !== value) seen.values.push(value);
    const text = document.querySelector('.clipit-submit-progress__text')?.textContent;
    if (text && seen.texts[seen.texts.length - 1] !== text) seen.texts.push(text);
  }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
})()`;

describe('/submit', () => {
  const browser = useBrowser();
  let platform: Platform;
  let seeder: ClipSeeder;
  let dir: string;
  let goodVideo: Buffer;
  let audioOnly: Buffer;
  let clipper: Account;
  let posts = 0;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { mediaWorker: true });
    seeder = await clipSeeder(platform);
    dir = await mkdtemp(join(tmpdir(), 'clipit-submit-'));
    // A real clip the browser reads and the worker processes (10 s, portrait, about half a MB).
    await synthesizeClip({ path: join(dir, 'clip.mp4'), durationSeconds: 10, width: 720, height: 1280, withAudio: false, fps: 30 });
    goodVideo = await readFile(join(dir, 'clip.mp4'));
    // Sound only, in a WebM: Chromium reads its duration like any video's, ffprobe finds no video stream.
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=3',
      '-c:a',
      'libopus',
      '-f',
      'webm',
      join(dir, 'sound.webm'),
    ]);
    audioOnly = await readFile(join(dir, 'sound.webm'));
    clipper = await seeder.signUp('clipper');
  }, 180_000);

  afterAll(async () => {
    await seeder?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    await platform?.stop();
  });

  /** Every call to /api/submissions… the page makes. */
  const submissionCalls = (page: Page) => {
    const calls: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/submissions')) calls.push(`${r.method()} ${pathname}`);
    });
    return calls;
  };

  const openForm = async (viewport: { width: number; height: number }) => {
    const page = await browser.newPage();
    await page.setViewportSize(viewport);
    await openSite(page, `${platform.url}/submit`);
    await expect(page.title()).resolves.toBe('Submit Your Clip');
    await page.getByRole('heading', { name: 'Submit Your Clip', level: 1 }).waitFor();
    // The page fits the viewport's width (no sideways scrolling on a phone).
    expect(
      await page.evaluate('Math.ceil(document.querySelector(".clipit-submit-page").getBoundingClientRect().right) <= innerWidth'),
    ).toBe(true);
    const main = page.locator('main');
    return { page, main, form: main.getByRole('form', { name: 'Submit Your Clip' }) };
  };

  const fill = async (form: Locator, name: string) => {
    posts += 1;
    await form.getByLabel('Clip Title').fill(name);
    await form.getByLabel('Twitter/X Post URL').fill(`https://x.com/${clipper.handle}/status/${Date.now()}${posts}`);
  };

  it('signed out: the form is there, says to log in, sends nothing and links to /login', async () => {
    await browser.context.clearCookies();
    const { page, main, form } = await openForm(PHONE);
    const calls = submissionCalls(page);
    await main.getByText('Log in to submit', { exact: true }).waitFor();
    await fill(form, 'Signed out');
    await form.getByRole('button', { name: 'Submit Clip' }).click();
    await expectToast(page, 'Log in to submit', 'You need to be logged in to submit a clip.');
    expect(calls).toEqual([]);
    await main.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(`${platform.url}/login`);
  });

  for (const [label, viewport] of VIEWPORTS) {
    it(`${label}: the checks toast the spec's words and make no call`, async () => {
      await signInBrowser(browser.context, platform.url, clipper.sid);
      const { page, main, form } = await openForm(viewport);
      const calls = submissionCalls(page);
      await main.getByText(`@${clipper.handle}`).waitFor();
      await main.getByText('Daily limit: 3 video submissions per day.', { exact: false }).waitFor();
      const submit = form.getByRole('button', { name: 'Submit Clip' });

      await submit.click();
      await expectToast(page, 'Missing Information', 'Please fill in all required fields.');
      await form.getByLabel('Clip Title').fill('Big play');
      await form.getByLabel('Twitter/X Post URL').fill('https://www.youtube.com/watch?v=42');
      await submit.click();
      await expectToast(page, 'Invalid Twitter URL', 'Please enter a valid Twitter/X post URL.');
      await form.getByLabel('Twitter/X Post URL').fill('https://x.com/clip_king/status/1790000000000000001');
      await submit.click();
      await expectToast(page, 'Video Required', "Please upload a video. Your clip won't appear in the feed without a video.");

      const picker = form.getByLabel('Video');
      await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video') });
      await expectToast(page, 'Invalid File Type', 'Please upload a video file (MP4, WebM, MOV, or AVI).');
      await picker.setInputFiles({ name: 'broken.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(4096, 7) });
      await expectToast(page, 'Invalid Video', 'Could not read video file. Please try a different file.');

      const info = form.getByLabel('Additional Info (optional)');
      await info.fill('');
      await info.pressSequentially('x'.repeat(140));
      await info.pressSequentially('y'.repeat(15));
      expect(await info.inputValue()).toBe(`${'x'.repeat(140)}${'y'.repeat(10)}`);
      await form.getByText('150/150').waitFor();
      expect(calls).toEqual([]);
    });
  }

  it('desktop: a real video uploads with a moving progress bar, then is processed until ready', async () => {
    await signInBrowser(browser.context, platform.url, clipper.sid);
    const { page, main, form } = await openForm(DESKTOP);
    const calls = submissionCalls(page);
    await main.getByText(`@${clipper.handle}`).waitFor();
    await fill(form, 'Real upload');
    await form.getByLabel('Additional Info (optional)').fill('Watch the last second');
    await form.getByLabel('Video').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: goodVideo });
    await form.getByText(/^clip\.mp4 \(\d+\.\d MB\)$/).waitFor();

    // Every value the bar takes, and the texts beside it, as the page draws them.
    await page.evaluate(RECORD_PROGRESS);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    // What the gateway's stream of the user's submissions tells the page (GET /api/submissions/stream).
    const frames: { eventName: string; data: string }[] = [];
    cdp.on('Network.eventSourceMessageReceived', (frame) => frames.push(frame));
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: UPLOAD_BYTES_PER_SECOND,
    });

    await form.getByRole('button', { name: 'Submit Clip' }).click();
    await form.getByRole('progressbar', { name: 'Video upload' }).waitFor();
    await expectToast(page, 'Submission Successful!', 'Your clip with video has been submitted for review!');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = (await page.evaluate('window.uploadSeen')) as { values: string[]; texts: string[] };
    const values = seen.values.map(Number);
    expect(values[values.length - 1]).toBe(100);
    expect(values.some((v) => v > 0 && v < 100)).toBe(true);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const total = `${(goodVideo.length / (1024 * 1024)).toFixed(1)} MB`;
    expect(seen.texts[seen.texts.length - 1]).toBe(`${total} of ${total} (100%)`);
    expect(seen.texts.some((t) => new RegExp(`^\\d+\\.\\d MB of ${total} \\(([1-9]|[1-9]\\d)%\\)$`).test(t))).toBe(true);

    await page.getByRole('heading', { name: 'Submission Received!' }).waitFor();
    const status = page.getByRole('status', { name: 'Video status' });
    await status.getByText('Processing your video').waitFor();
    await status.getByText('Video ready').waitFor({ timeout: 150_000 });
    expect(await status.getAttribute('data-video-state')).toBe('ready');
    // The guide's checks on what the worker measured: a silent 10 s 720x1280 clip of the still test card.
    const checks = page.getByRole('list', { name: 'Guide checks' }).getByRole('listitem');
    const verdicts = await Promise.all(
      (await checks.all()).map(async (li) => [await li.getAttribute('data-rule'), await li.getAttribute('data-verdict')]),
    );
    expect(verdicts).toEqual([
      ['duration', 'warning'],
      ['portrait', 'pass'],
      ['width', 'pass'],
      ['audio', 'warning'],
      ['watermark', 'unsure'],
    ]);
    expect(await checks.first().innerText()).toContain('10 seconds long: the guide asks for at least 15 seconds.');
    await page.getByText('2 warnings: you can still wait for review, or submit again with a better cut.').waitFor();
    expect(calls.slice(0, 4)).toEqual([
      'POST /api/submissions',
      'POST /api/submissions/video-upload-url',
      expect.stringMatching(/^PUT \/api\/submissions\/uploads\/[^/]+$/),
      'POST /api/submissions/finalize-video-upload',
    ]);
    // The page held the stream open and was told of the ready video there; it read the list then.
    expect(calls.slice(4)).toContain('GET /api/submissions/stream');
    expect(calls.slice(4).every((c) => c === 'GET /api/submissions' || c === 'GET /api/submissions/stream')).toBe(true);
    const told = frames
      .filter((f) => f.eventName === 'submission')
      .map((f) => JSON.parse(f.data) as { change: string; videoState: string });
    expect(told).toContainEqual(expect.objectContaining({ change: 'submission.video-changed', videoState: 'ready' }));

    // Final: the polling has stopped, and the stream is closed.
    const polled = calls.length;
    await page.waitForTimeout(4_500);
    expect(calls.length).toBe(polled);

    await page.getByRole('button', { name: 'Submit Another Clip' }).click();
    expect(await form.getByLabel('Clip Title').inputValue()).toBe('');
    expect(await form.getByLabel('Additional Info (optional)').inputValue()).toBe('');
  }, 240_000);

  it('phone: a file the media worker refuses shows the refusal with its reason', async () => {
    await signInBrowser(browser.context, platform.url, clipper.sid);
    const { page, main, form } = await openForm(PHONE);
    await main.getByText(`@${clipper.handle}`).waitFor();
    await fill(form, 'Only sound');
    await form.getByLabel('Video').setInputFiles({ name: 'sound.webm', mimeType: 'video/webm', buffer: audioOnly });
    await form.getByText(/^sound\.webm \(0\.0 MB\)$/).waitFor();
    await form.getByRole('button', { name: 'Submit Clip' }).click();
    await expectToast(page, 'Submission Successful!', 'Your clip with video has been submitted for review!');
    const status = page.getByRole('status', { name: 'Video status' });
    await status.getByText('Video refused').waitFor({ timeout: 120_000 });
    await status.getByText('Invalid Video: Could not read video file. Please try a different file.').waitFor();
    expect(await status.getAttribute('data-video-state')).toBe('rejected');
  }, 180_000);
});
