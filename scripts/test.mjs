// `npm test`: every check the platform has, in the order that fails fastest.
// First what the machine must provide (deploy/launcher/prerequisites.mjs, the checks `npm start` uses):
// PostgreSQL, NATS with JetStream and Redis at TEST_POSTGRES_URL / TEST_NATS_URL / TEST_REDIS_URL (local ones
// started, missing packages installed with apt-get as root on Debian), docker-compose, kubectl (or kustomize),
// Chromium and ffmpeg; anything still missing stops the run at once, named with the command that provides it.
// Then lint → type-check (sources and tests) → generated contracts, remote types, web API types and versions up
// to date → the gateway's OpenAPI document linted → Jest (every project in jest.config.js: unit, UI,
// integration against the real Postgres/NATS/Redis, end-to-end journeys, the site in headless Chromium) → the
// fault suite (every part of the platform down in the middle of the journeys).
// Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDependencies } from '../deploy/launcher/install-deps.mjs';
import { ensureTestPrerequisites, PrerequisiteError } from '../deploy/launcher/prerequisites.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const bin = (p) => join(root, 'node_modules', p);
const started = Date.now();
const timings = [];

function step(name, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  timings.push(`${name} ${secs}s`);
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${r.status ?? r.signal}) after ${secs}s`);
    process.exit(r.status || 1);
  }
}

// A fresh clone: the npm dependencies first (they bring Node 24), then this script again on that Node.
if (!existsSync(join(root, 'node_modules'))) {
  console.log('▶ node_modules is missing: installing the npm dependencies (deploy/launcher/install-deps.mjs)');
  try {
    installDependencies(root);
  } catch (err) {
    console.error(`\n✗ ${err.message}`);
    process.exit(1);
  }
}
if (Number(process.versions.node.split('.')[0]) < 24) {
  const local = bin('.bin/node');
  if (!existsSync(local)) {
    console.error(`\n✗ Node 24 is needed (this is ${process.version}) and node_modules/.bin/node is missing: run npm ci`);
    process.exit(1);
  }
  const again = spawnSync(local, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

{
  const t0 = Date.now();
  console.log('\n▶ prerequisites (servers and programs the tests need)');
  try {
    await ensureTestPrerequisites({ root, log: (msg) => console.log(`  ${msg}`) });
  } catch (err) {
    console.error(`\n✗ prerequisites: ${err instanceof PrerequisiteError ? err.message : (err?.stack ?? err)}`);
    console.error('Nothing was run.');
    process.exit(1);
  }
  timings.push(`prerequisites ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}

step('lint', [bin('eslint/bin/eslint.js'), '--max-warnings=0', '.']);
// The root tsconfig references every project and tsconfig.tests.json, so this checks sources and tests.
step('type-check', [bin('typescript/bin/tsc'), '-b', 'tsconfig.json']);
step('contracts up to date', ['scripts/proto-gen.mjs', '--check']);
step('remote types up to date', ['scripts/remote-types.mjs', '--check']);
step('web api types up to date', ['scripts/web-api-types.mjs', '--check']);
step('OpenAPI document lint', [bin('@redocly/cli/bin/cli.js'), 'lint', 'docs/api/openapi.json'], { REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' });
step('versions up to date', ['scripts/versions.mjs', '--check']);

const out = mkdtempSync(join(tmpdir(), 'clipit-jest-'));
const only = process.argv.slice(2);
// Jest runs in band on two cores, so a process would carry every test file's leftovers to the end: the
// projects run in groups, each in a Jest process of its own (a fresh heap), their reports summed.
const GROUPS = [['unit', 'ui', 'web'], ['integration'], ['e2e'], ['browser']];
const runs = only.length > 0 ? [{ name: 'jest', args: only }] : GROUPS.map((g) => ({ name: `jest (${g.join(', ')})`, args: ['--selectProjects', ...g] }));
const results = { numTotalTests: 0, numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
for (const [i, run] of runs.entries()) {
  const report = join(out, `report-${i}.json`);
  step(run.name, ['--experimental-vm-modules', bin('jest/bin/jest.js'), '--json', `--outputFile=${report}`, ...run.args], {
    NODE_OPTIONS: '--no-warnings=ExperimentalWarning --max-old-space-size=6144',
  });
  const r = JSON.parse(readFileSync(report, 'utf8'));
  for (const key of Object.keys(results)) results[key] += r[key];
}
// The fault suite last: the platform as real processes on private servers, each part down 5 s and 60 s in the
// middle of the journeys (jest.faults.config.js, e2e/faults). Skipped when only some tests were asked for.
if (only.length === 0) {
  step('fault suite (npm run test:faults)', ['--experimental-vm-modules', bin('jest/bin/jest.js'), '-c', 'jest.faults.config.js'], { NODE_OPTIONS: '--no-warnings=ExperimentalWarning' });
}
rmSync(out, { recursive: true, force: true });
console.log(`\n${timings.join(' · ')} · total ${((Date.now() - started) / 1000).toFixed(1)}s`);
if (results.numTotalTests === 0) {
  console.error('no test ran');
  process.exit(1);
}
console.log(`${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`);
