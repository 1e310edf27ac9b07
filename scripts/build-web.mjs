// `npm run build:web`: builds the shell and the three remotes for production into frontends/<app>/dist
// (content-hashed files, index.html for the shell, remoteEntry.js + mf-manifest.json per remote), all
// four in one rspack MultiCompiler run, then a brotli (.br) and a gzip (.gz) sibling next to every text
// asset, which the gateway sends to browsers that accept them.
//   node scripts/build-web.mjs              build all four
//   node scripts/build-web.mjs --if-stale   only if a dist is missing or older than any of its inputs
//   node scripts/build-web.mjs shell public build only these
import { rspack } from '@rspack/core';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FRONTEND_APPS, precompressFolder, REPO_ROOT } from '@clipit/frontend-build';

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const apps = args.filter((a) => !a.startsWith('--'));
const unknown = apps.filter((a) => !FRONTEND_APPS.includes(a));
if (unknown.length > 0) {
  console.error(`unknown app(s): ${unknown.join(', ')} (the apps are ${FRONTEND_APPS.join(', ')})`);
  process.exit(2);
}
const selected = apps.length > 0 ? apps : FRONTEND_APPS;

/** The newest modification time under a path (files only; node_modules and dist skipped). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

/** The file every build of the app writes last-ish and always: its freshness stands for the dist's. */
const builtMarker = (app) => join(REPO_ROOT, 'frontends', app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json');

function stale(app) {
  const marker = builtMarker(app);
  if (!existsSync(marker)) return true;
  // An app's inputs: its own folder, the browser libraries (shared by every app), the build preset, the lock file.
  const libs = readdirSync(join(REPO_ROOT, 'libs')).map((lib) => join(REPO_ROOT, 'libs', lib));
  const inputs = [join(REPO_ROOT, 'frontends', app), ...libs, join(REPO_ROOT, 'package-lock.json')];
  return Math.max(...inputs.map(newest)) > statSync(marker).mtimeMs;
}

const toBuild = ifStale ? selected.filter(stale) : selected;
if (toBuild.length === 0) {
  console.log(`web apps up to date: ${selected.join(', ')}`);
  process.exit(0);
}

const started = Date.now();
const configs = await Promise.all(
  toBuild.map(async (app) => {
    const mod = await import(pathToFileURL(join(REPO_ROOT, 'frontends', app, 'rspack.config.mjs')).href);
    const config = typeof mod.default === 'function' ? mod.default({}, { mode: 'production' }) : mod.default;
    return { ...config, mode: 'production' };
  }),
);

const stats = await new Promise((resolve, reject) => {
  const compiler = rspack(configs);
  compiler.run((err, result) => {
    compiler.close(() => undefined);
    if (err) reject(err);
    else resolve(result);
  });
});

let failed = false;
const rows = [];
for (const child of stats.stats) {
  const { name, time, errors, warnings, assets } = child.toJson({ all: false, timings: true, errors: true, warnings: true, assets: true });
  for (const e of errors ?? []) console.error(`${name}: ${e.message}`);
  for (const w of warnings ?? []) console.warn(`${name}: warning: ${w.message}`);
  if ((errors ?? []).length > 0) failed = true;
  const js = (assets ?? []).filter((a) => a.name?.endsWith('.js'));
  rows.push(
    `  ${name.padEnd(10)} ${String(time ?? '?').padStart(5)} ms  ${String(js.length).padStart(3)} js files  ${(js.reduce((n, a) => n + a.size, 0) / 1024).toFixed(0).padStart(5)} KB`,
  );
}
console.log(`built ${toBuild.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s (rspack, production):\n${rows.join('\n')}`);
if (failed) process.exit(1);

const compressing = Date.now();
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
for (const app of toBuild) {
  const t = await precompressFolder(join(REPO_ROOT, 'frontends', app, 'dist'));
  console.log(
    `  ${app.padEnd(10)} ${String(t.files).padStart(3)} text files  ${kb(t.bytes).padStart(7)} → brotli ${kb(t.br)}, gzip ${kb(t.gzip)}`,
  );
}
console.log(`precompressed in ${((Date.now() - compressing) / 1000).toFixed(1)} s`);
