// `npm run bench:web`: what a first visit costs. Builds the web apps for production, starts identity and
// the gateway (their own database, stream names, Redis prefix and storage folder, removed at the end),
// and loads pages in headless Chromium with a cold cache, several times each:
//   - JavaScript loaded before the shell's first render of the route (the `clipit:routes-rendered`
//     mark): files, bytes, and bytes gzip-compressed (as a compressing proxy or CDN would send them),
//   - first contentful paint, and the time to that first render of the route.
//   BENCH_WEB_RUNS=5 BENCH_WEB_PATHS=/login,/,/feed npm run bench:web
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { identityEnv, isolatedBackend } from './isolation.mjs';
import { freePort, processGroup, waitReady } from './processes.mjs';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const RUNS = Number(env('BENCH_WEB_RUNS', '3'));
const PATHS = env('BENCH_WEB_PATHS', '/login,/').split(',');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const group = processGroup(root);
const start = (label, args, extraEnv) => group.start(label, args, extraEnv);
const stopChildren = () => group.stop();
/** The isolated database, streams, Redis prefix and storage folder, once made. */
let backend;
const log = (message) => process.stdout.write(`${message}\n`);





function step(label, args) {
  const t0 = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${label} failed`);
  return Date.now() - t0;
}

async function startPlatform() {
  backend = await isolatedBackend('benchweb');

  const [grpcPort, identityHttpPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const shared = { ...backend.env, LOG_LEVEL: 'warn' };
  const identity = start('identity', ['services/identity/dist/main.js'], {
    ...shared,
    ...identityEnv(backend, { grpcPort, httpPort: identityHttpPort }),
  });
  await waitReady(`http://127.0.0.1:${identityHttpPort}/health/ready`, 'identity', identity);
  const gateway = start('gateway', ['services/gateway/dist/main.js'], {
    ...shared,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    IDENTITY_GRPC_URL: `127.0.0.1:${grpcPort}`,
  });
  const url = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${url}/health/ready`, 'gateway', gateway);
  return url;
}

// Runs in the page: the paint and resource timings up to the shell's first render of the route.
const COLLECT = `(() => {
  const rendered = performance.getEntriesByName('clipit:routes-rendered')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const scripts = performance.getEntriesByType('resource')
    .filter((r) => r.initiatorType === 'script' || /\\.m?js(\\?|$)/.test(r.name))
    .filter((r) => r.responseEnd <= rendered.startTime)
    .map((r) => r.name);
  return { rendered: rendered.startTime, fcp: fcp ? fcp.startTime : null, scripts };
})()`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function measure(url) {
  const profile = await mkdtemp(join(tmpdir(), 'clipit-bench-chromium-'));
  // A fresh profile each time: a first visit, nothing cached.
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction("performance.getEntriesByName('clipit:routes-rendered').length > 0", undefined, { timeout: 20_000 });
    // FCP is reported asynchronously; give it a frame.
    await page.waitForFunction("performance.getEntriesByName('first-contentful-paint').length > 0", undefined, { timeout: 5_000 }).catch(() => undefined);
    return await page.evaluate(COLLECT);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

const sizes = new Map();
async function sizeOf(url) {
  if (!sizes.has(url)) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    sizes.set(url, { raw: body.length, gzip: gzipSync(body).length });
  }
  return sizes.get(url);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  log('building the services (tsc -b) and the web apps (rspack, production) ...');
  step('tsc -b', [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'services/identity', 'services/gateway']);
  const webMs = step('build:web', ['scripts/build-web.mjs']);
  const url = await startPlatform();

  const rows = [];
  const details = [];
  for (const path of PATHS) {
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await measure(`${url}${path}`));
    const scripts = runs.at(-1).scripts;
    const files = await Promise.all(scripts.map(async (s) => ({ path: new URL(s).pathname, ...(await sizeOf(s)) })));
    const total = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
    const fcps = runs.map((r) => r.fcp).filter((v) => v !== null);
    rows.push({ path, files: files.length, ...total, fcp: fcps.length ? median(fcps) : null, rendered: median(runs.map((r) => r.rendered)) });
    details.push({ path, files });
  }

  log(`\nweb apps built in ${(webMs / 1000).toFixed(1)} s (node scripts/build-web.mjs, all four)`);
  log(`first visit, cold cache, median of ${RUNS} runs (headless Chromium, loopback, no throttling):\n`);
  log(`${'path'.padEnd(10)} ${'JS files'.padStart(8)} ${'JS bytes'.padStart(11)} ${'JS gzip'.padStart(10)} ${'FCP'.padStart(9)} ${'route rendered'.padStart(15)}`);
  for (const r of rows) {
    log(
      `${r.path.padEnd(10)} ${String(r.files).padStart(8)} ${kb(r.raw).padStart(11)} ${kb(r.gzip).padStart(10)} ${(r.fcp === null ? '-' : `${r.fcp.toFixed(0)} ms`).padStart(9)} ${`${r.rendered.toFixed(0)} ms`.padStart(15)}`,
    );
  }
  for (const { path, files } of details) {
    log(`\nJavaScript before the first render of ${path}:`);
    for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) log(`  ${kb(f.gzip).padStart(9)} gzip  ${kb(f.raw).padStart(9)}  ${f.path}`);
  }
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  console.error(`bench failed: ${err.stack ?? err.message}`);
} finally {
  await stopChildren();
  await backend?.cleanup();
}
process.exit(failed ? 1 : 0);
