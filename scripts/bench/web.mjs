// `npm run bench:web`: what a first visit costs on a phone. Builds the services and the web apps for
// production (precompressed), starts the platform (identity, submissions, campaigns, social, feed, admin
// and the gateway; their own databases, stream names, Redis prefix and storage folder, removed at the
// end), seeds it with BENCH_WEB_CLIPS approved clips in the feed (200) through the bulk loader, each with
// a real web MP4 and poster at the media worker's keys, and then for each page:
//   - JavaScript loaded before the page's screen first rendered (the shell's `clipit:screen-rendered`
//     mark: the frame and the screen of the remote that owns the page) in headless Chromium with a cold cache: files, bytes, their gzip size (the budget's unit) and
//     the bytes that crossed the wire (the server's encoding: brotli where the browser takes it);
//   - Lighthouse (npm `lighthouse`, driving Debian's Chromium) in its default mobile emulation and
//     simulated throttling: performance score, LCP, CLS, total blocking time, accessibility and SEO
//     scores, and the audits the budget names (text compression, duplicated JavaScript, title and meta
//     description); the median of BENCH_WEB_RUNS runs (3) by performance score.
// The baseline, measured in the same run by the same Lighthouse: a bare node:http server answering one
// HTML page with a heading, a paragraph and the seeded 33 KB poster, no script and no API read: the
// least a first visit to a page showing a clip costs on the emulated phone. It is refused ("baseline
// broken: …", exit 1) when that server does not answer 200 or Lighthouse could not load its page.
// BENCH_WEB_REPORTS=<folder> also keeps each run's Lighthouse report there (JSON, viewable in the
// Lighthouse viewer), to see which requests and tasks a page's LCP waited for.
// BENCH_WEB_HOLD=1 measures nothing: it seeds the platform, prints its address and keeps it up until
// Ctrl-C (then removes it as usual), to look at the seeded site in a browser or profile it.
//   BENCH_WEB_RUNS=5 BENCH_WEB_PATHS=/,/feed npm run bench:web
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { mediaKeys } from '@clipit/contracts';
import { makePoster, synthesizeClip, transcodeForWeb } from '@clipit/media';
import { createStorage } from '@clipit/storage';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { runBench, refuseBaseline } from './baseline.mjs';
import { isolatedBackend } from './isolation.mjs';
import { processGroup } from './processes.mjs';
import { seedEvents } from './seed.mjs';
import { startServices } from './services.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const RUNS = Number(env('BENCH_WEB_RUNS', '3'));
const PATHS = env('BENCH_WEB_PATHS', '/,/feed,/leaderboard,/discover').split(',');
const CLIPS = Number(env('BENCH_WEB_CLIPS', '200'));
const REPORTS = process.env.BENCH_WEB_REPORTS;
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const group = processGroup(root);
/** The isolated databases, streams, Redis prefix and storage folder, once made. */
let backend;
let scratch;
const log = (message) => process.stdout.write(`${message}\n`);

function step(label, args) {
  const t0 = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${label} failed`);
  return Date.now() - t0;
}

/**
 * BENCH_WEB_CLIPS approved clips with a processed video, as the bulk loader's events, and for each the
 * media worker's two objects in storage (one real web MP4 and poster, made once, under every clip's keys).
 */
async function seed() {
  const names = { stream: backend.env.EVENTS_STREAM, subjectPrefix: backend.env.EVENTS_SUBJECT_PREFIX };
  const seeded = await seedEvents(backend.env.NATS_URL, names, {
    users: Math.max(40, Math.ceil(CLIPS / 4)),
    clips: CLIPS,
    likes: CLIPS * 2,
  });
  scratch = await mkdtemp(join(tmpdir(), 'clipit-bench-web-'));
  const [source, video, poster] = ['source.mp4', 'video.mp4', 'poster.jpg'].map((name) => join(scratch, name));
  await synthesizeClip({ path: source, durationSeconds: 6, width: 720, height: 1280, withAudio: true, fps: 30 });
  await transcodeForWeb(source, video);
  await makePoster(video, poster);
  const [videoBytes, posterBytes] = [await readFile(video), await readFile(poster)];
  const storage = await createStorage({ STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: backend.env.STORAGE_FS_ROOT });
  for (const id of seeded.clipIds) {
    await storage.put(mediaKeys.video(id), videoBytes, 'video/mp4');
    await storage.put(mediaKeys.poster(id), posterBytes, 'image/jpeg');
  }
  log(
    `seeded ${CLIPS} clips (a ${(videoBytes.length / 1024).toFixed(0)} KB web MP4 and a ${(posterBytes.length / 1024).toFixed(0)} KB poster each) and ${seeded.users.length} users`,
  );
}

/** The baseline's bare server: `/` is a static page with the poster, `/poster.jpg` the poster; nothing else. */
async function bareServer() {
  const posterBytes = await readFile(join(scratch, 'poster.jpg'));
  const page = Buffer.from(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>CLIP IT</title><meta name="description" content="The bare baseline page of bench:web."></head>' +
      '<body><main><h1>Clip it. Post it. Get paid.</h1><p>Cut short branded clips from live streams, post them on X and earn per approved clip.</p>' +
      '<img src="/poster.jpg" alt="A clip\'s poster" width="360" height="640"></main></body></html>',
  );
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.length }).end(page);
    else if (req.url === '/poster.jpg')
      res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': posterBytes.length }).end(posterBytes);
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Waits until the feed service has built the seeded clips into its read models. */
async function untilFeedHasClips(url) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const posts = await (await fetch(`${url}/api/leaderboard/posts?limit=100`)).json().catch(() => []);
    if (Array.isArray(posts) && posts.length >= Math.min(CLIPS, 100)) return;
    if (Date.now() > deadline) throw new Error(`the feed shows ${posts.length} posts after 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// Runs in the page: the scripts that arrived before the page's screen first rendered.
const RENDERED_MARK = 'clipit:screen-rendered';
const COLLECT = `(() => {
  const rendered = performance.getEntriesByName('${RENDERED_MARK}')[0];
  return performance.getEntriesByType('resource')
    .filter((r) => r.initiatorType === 'script' || /\\.m?js(\\?|$)/.test(r.name))
    .filter((r) => r.responseEnd <= rendered.startTime)
    .map((r) => ({ url: r.name, wire: r.transferSize }));
})()`;

/** The scripts before the first render of `url`, on a first visit (a fresh profile: nothing cached). */
async function scriptsBeforeRender(url) {
  const profile = await mkdtemp(join(tmpdir(), 'clipit-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(`performance.getEntriesByName('${RENDERED_MARK}').length > 0`, undefined, { timeout: 30_000 });
    return await page.evaluate(COLLECT);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

const sizes = new Map();
async function sizeOf(url) {
  if (!sizes.has(url)) {
    const body = Buffer.from(await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    sizes.set(url, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return sizes.get(url);
}

/** One Lighthouse run of `url` (default config: mobile emulation, simulated throttling), in a Chromium of its own. */
async function lighthouseRun(url, run, label) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'seo'],
    });
    const { categories, audits } = result.lhr;
    if (REPORTS) {
      await mkdir(REPORTS, { recursive: true });
      const name = `${label ?? (new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home')}-${run + 1}.json`;
      await writeFile(join(REPORTS, name), result.report);
    }
    const savings = (id) => audits[id]?.details?.overallSavingsBytes ?? 0;
    return {
      // Lighthouse scores a page that failed to load too: these say whether the figures are of the page.
      runtimeError: result.lhr.runtimeError?.message,
      documentOk: audits['http-status-code']?.score !== 0,
      performance: categories.performance.score,
      accessibility: categories.accessibility.score,
      seo: categories.seo.score,
      lcp: audits['largest-contentful-paint'].numericValue,
      fcp: audits['first-contentful-paint'].numericValue,
      cls: audits['cumulative-layout-shift'].numericValue,
      tbt: audits['total-blocking-time'].numericValue,
      wire: audits['total-byte-weight'].numericValue,
      compressionSavings: savings('uses-text-compression'),
      duplicatedJs: savings('duplicated-javascript'),
      duplicates: (audits['duplicated-javascript']?.details?.items ?? []).map((item) => `${item.source} (${kb(item.wastedBytes ?? 0)})`),
      lcpElement: audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
      title: audits['document-title'].score === 1,
      description: audits['meta-description'].score === 1,
      failedA11y: Object.values(audits)
        .filter((a) => a.score === 0 && result.lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0))
        .map((a) => a.id),
    };
  } finally {
    chrome.kill();
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Why a Lighthouse run's figures are not of a loaded page, if they are not. */
const runProblems = (r, n) => [
  r.runtimeError && `run ${n}: ${r.runtimeError}`,
  !r.documentOk && `run ${n}: the page's document did not answer 2xx`,
  typeof r.performance !== 'number' && `run ${n}: no performance score`,
  !(r.lcp > 0) && `run ${n}: LCP ${r.lcp}`,
];
const median = (runs, by) => [...runs].sort((a, b) => by(a) - by(b))[Math.floor(runs.length / 2)];

async function main() {
  log('building the web apps (rspack, production, precompressed) ...');
  const webMs = step('build:web', ['scripts/build-web.mjs']);
  backend = await isolatedBackend('benchweb', { otherDatabases: ['submissions', 'admin', 'campaigns', 'social', 'feed'] });
  await seed();
  const { gatewayUrl: url } = await startServices(group, backend, ['identity', 'submissions', 'campaigns', 'social', 'feed', 'admin']);
  await untilFeedHasClips(url);
  if (process.env.BENCH_WEB_HOLD) {
    log(`holding the seeded platform at ${url} until Ctrl-C`);
    await new Promise((resolve) => ['SIGINT', 'SIGTERM'].forEach((signal) => process.once(signal, resolve)));
    return;
  }

  const bare = await bareServer();
  const baselineRuns = [];
  try {
    const answers = await Promise.all(
      ['/', '/poster.jpg'].map(async (path) => {
        const res = await fetch(`${bare.url}${path}`);
        await res.arrayBuffer();
        return [path, res.status];
      }),
    );
    refuseBaseline(
      'bare server',
      answers.map(([path, status]) => status !== 200 && `${path} answered ${status}`),
      'no baseline row printed',
    );
    for (let i = 0; i < RUNS; i += 1) baselineRuns.push(await lighthouseRun(`${bare.url}/`, i, 'baseline'));
  } finally {
    await bare.close();
  }
  refuseBaseline(
    'Lighthouse of the bare page',
    baselineRuns.flatMap((r, i) => runProblems(r, i + 1)),
    'no baseline row printed',
  );
  const baseline = median(baselineRuns, (r) => r.performance);

  const rows = [];
  const details = [];
  for (const path of PATHS) {
    const scripts = await scriptsBeforeRender(`${url}${path}`);
    const files = await Promise.all(scripts.map(async (s) => ({ path: new URL(s.url).pathname, wire: s.wire, ...(await sizeOf(s.url)) })));
    const js = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip, wire: t.wire + f.wire }), { raw: 0, gzip: 0, wire: 0 });
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await lighthouseRun(`${url}${path}`, i));
    const broken = runs.flatMap((r, i) => runProblems(r, i + 1)).filter(Boolean);
    if (broken.length > 0) throw new Error(`measured run broken: Lighthouse of ${path}: ${broken.join(', ')}`);
    rows.push({ path, files: files.length, js, lh: median(runs, (r) => r.performance), runs });
    details.push({ path, files });
  }

  log(`\nweb apps built in ${(webMs / 1000).toFixed(1)} s (node scripts/build-web.mjs, all four, precompressed)`);
  log(
    `first visit, cold cache; Lighthouse in its default mobile emulation, median of ${RUNS} runs by performance score; ${CLIPS} clips seeded\n`,
  );
  log(
    '| page | JS before first render: files, gzip (budget 170 KB for /), on the wire | performance | LCP | FCP | CLS | TBT | accessibility | SEO | page weight | text compression savings | duplicated JS | title, description |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { path, files, js, lh } of rows) {
    log(
      `| ${path} | ${files}, ${kb(js.gzip)}, ${kb(js.wire)} | ${lh.performance.toFixed(2)} | ${(lh.lcp / 1000).toFixed(2)} s | ${(lh.fcp / 1000).toFixed(2)} s | ${lh.cls.toFixed(3)} | ${lh.tbt.toFixed(0)} ms | ` +
        `${lh.accessibility.toFixed(2)} | ${lh.seo.toFixed(2)} | ${kb(lh.wire)} | ${kb(lh.compressionSavings)} | ${kb(lh.duplicatedJs)} | ${lh.title ? 'yes' : 'NO'}, ${lh.description ? 'yes' : 'NO'} |`,
    );
  }
  const b = baseline;
  log(
    `| baseline: bare server, one HTML page and the poster, no script | 0, 0.0 KB, 0.0 KB | ${b.performance.toFixed(2)} | ${(b.lcp / 1000).toFixed(2)} s | ${(b.fcp / 1000).toFixed(2)} s | ` +
      `${b.cls.toFixed(3)} | ${b.tbt.toFixed(0)} ms | ${b.accessibility.toFixed(2)} | ${b.seo.toFixed(2)} | ${kb(b.wire)} | ${kb(b.compressionSavings)} | ${kb(b.duplicatedJs)} | ${b.title ? 'yes' : 'NO'}, ${b.description ? 'yes' : 'NO'} |`,
  );
  for (const { path, runs } of rows) {
    log(
      `\n${path}: performance per run ${runs.map((r) => r.performance.toFixed(2)).join(', ')}; LCP ${runs.map((r) => `${(r.lcp / 1000).toFixed(2)} s`).join(', ')}`,
    );
    const failed = [...new Set(runs.flatMap((r) => r.failedA11y))];
    if (failed.length > 0) log(`  accessibility audits failed: ${failed.join(', ')}`);
    const median = rows.find((row) => row.path === path).lh;
    log(`  LCP element: ${median.lcpElement || '(none reported)'}`);
    if (median.duplicates.length > 0) log(`  duplicated JavaScript: ${median.duplicates.join('; ')}`);
  }
  for (const { path, files } of details) {
    log(`\nJavaScript before the first render of ${path}:`);
    for (const f of [...files].sort((a, b) => b.gzip - a.gzip))
      log(`  ${kb(f.gzip).padStart(9)} gzip  ${kb(f.wire).padStart(9)} wire  ${kb(f.raw).padStart(9)}  ${f.path}`);
  }
}

await runBench(main, async () => {
  await group.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  await backend?.cleanup();
});
