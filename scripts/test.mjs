// `npm test`: every check the platform has, in phases that keep both cores busy (see the phases below).
// First what the machine must provide (deploy/launcher/prerequisites.mjs, the checks `npm start` uses):
// PostgreSQL, NATS with JetStream and Redis at TEST_POSTGRES_URL / TEST_NATS_URL / TEST_REDIS_URL (local ones
// started, missing packages installed with apt-get as root on Debian), docker-compose, kubectl (or kustomize),
// Chromium and ffmpeg; anything still missing stops the run at once, named with the command that provides it.
// Then the type-check (sources and tests) and the checks that generated contracts, remote types, web API
// types, versions and the OpenAPI document are current, beside the unit, UI and web specs → integration
// against the real Postgres/NATS/Redis, end-to-end journeys and the site in headless Chromium → the e2e
// files that time what they do against a bound, beside the serial integration files and lint at a lower
// priority → the fault suite (every part of the platform down in the middle of the journeys, in a
// compressed time profile; the real-time outages are `npm run test:faults:long`). Stops after the first
// phase with a failing step, and ends with a report of where the time went (scripts/test-report.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDependencies } from '../deploy/launcher/install-deps.mjs';
import { LINTERS } from './lint.mjs';
import { ensureTestPrerequisites, PrerequisiteError } from '../deploy/launcher/prerequisites.mjs';
import { filesOfReport, renderReport } from './test-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const bin = (p) => join(root, 'node_modules', p);
const started = Date.now();
const timings = [];

/**
 * Processor seconds used by this process's children that ended (Linux: cutime + cstime of /proc/self/stat,
 * which count each child's own waited-for children too), so a step's CPU is the difference around it; a step
 * whose CPU is far below twice its wall waited more than it computed. Undefined where /proc is not there.
 */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}
/**
 * A fixed piece of work on one core, timed: eight scrypt hashes (N 2^14, 16 MB each; the kind of work the
 * platform's own password hashing is). The same suite took 18 to 31 minutes on these machines as they went
 * through faster and slower spells, so the report gives this figure at the start and at the end of the run:
 * two runs compare by their steps only where their gauges agree (ADR 0030).
 */
function speedGauge() {
  const started = performance.now();
  for (let i = 0; i < 8; i += 1) scryptSync('speed gauge', `salt ${i}`, 32, { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return (performance.now() - started) / 1000;
}
/** Times the gauge and adds it to the report's steps, named by when it ran ('at the start', 'at the end'). */
function recordGauge(when) {
  const seconds = speedGauge();
  timings.push({
    name: `speed gauge (eight scrypt hashes on one core; a higher figure is a slower machine), ${when}: ${seconds.toFixed(3)} s`,
    seconds,
  });
}

const cpuSince = (before) => {
  const now = childrenCpuSeconds();
  return before === undefined || now === undefined ? undefined : now - before;
};

/**
 * A step: a program run with this Node. A Jest step (`report`) writes its --json report, whose counts and
 * files make the summary and the timing report. A step with `nice` runs at that lower priority, with every
 * process it starts (ffmpeg, Chromium, workers inherit it): beside a step whose reads are held to a time
 * bound, it takes the processor only where that step and its servers leave it.
 * @typedef {{ name: string, args: string[], env?: Record<string, string>, report?: string, nice?: number }} Step
 */

/**
 * Runs one phase: its lanes side by side, each lane's steps one after another. A phase of one step shows
 * that step's output as it comes; side by side, each step's output is shown whole when it ends. A failed
 * step ends its lane; the run ends after the phase, with the timing report, if any step failed.
 * @param {string} name what the phase is, for the report's row when it has several lanes
 * @param {Step[][]} lanesOfSteps
 */
async function phase(name, lanesOfSteps) {
  const alone = lanesOfSteps.length === 1 && lanesOfSteps[0].length === 1;
  const t0 = Date.now();
  const cpu0 = childrenCpuSeconds();
  const failed = [];
  await Promise.all(
    lanesOfSteps.map(async (lane, laneIndex) => {
      for (const s of lane) {
        const began = Date.now();
        if (alone) console.log(`\n▶ ${s.name}`);
        const args = s.report ? [...s.args, '--json', `--outputFile=${s.report}`] : s.args;
        const { code, output } = await new Promise((resolve) => {
          const child = spawn(node, args, {
            cwd: root,
            stdio: alone ? 'inherit' : 'pipe',
            env: { ...process.env, ...(alone ? {} : { FORCE_COLOR: '0' }), ...(s.env ?? {}) },
          });
          // At once, before the step has started anything of its own: its children inherit the priority. A
          // step already gone (it failed to start) has nothing to renice; its exit is reported below.
          if (s.nice && child.pid !== undefined) {
            try {
              setPriority(child.pid, s.nice);
            } catch {
              // ESRCH: the process ended before it could be reniced.
            }
          }
          let output = '';
          child.stdout?.on('data', (d) => (output += d));
          child.stderr?.on('data', (d) => (output += d));
          child.on('close', (code, signal) => resolve({ code: code ?? signal, output }));
        });
        const seconds = (Date.now() - began) / 1000;
        timings.push({ name: s.name, seconds, ...(alone ? { cpu: cpuSince(cpu0) } : {}) });
        if (!alone) console.log(`\n▶ ${s.name} (${seconds.toFixed(1)}s)${output.trim() ? `\n${output.trimEnd()}` : ''}`);
        if (s.report && existsSync(s.report)) {
          reports.push(s.report);
          const r = JSON.parse(readFileSync(s.report, 'utf8'));
          for (const key of Object.keys(results)) results[key] += r[key];
        }
        if (code !== 0) {
          console.error(`\n✗ ${s.name} failed (exit ${code}) after ${seconds.toFixed(1)}s`);
          failed.push({ laneIndex, code });
          return;
        }
      }
    }),
  );
  if (!alone) timings.push({ name: `  (${name}: the steps above, side by side)`, seconds: (Date.now() - t0) / 1000, cpu: cpuSince(cpu0) });
  // The exit code of the first lane's failure (lanes in the order given), as one step after another would end.
  const first = failed.sort((a, b) => a.laneIndex - b.laneIndex)[0];
  if (first) finish(typeof first.code === 'number' && first.code > 0 ? first.code : 1);
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
  timings.push({ name: 'prerequisites', seconds: (Date.now() - t0) / 1000 });
  recordGauge('at the start');
}

// KEEP_REPORTS: a folder (made if missing) to keep the Jest reports in after the run.
const reportsRoot = process.env['KEEP_REPORTS'] ?? tmpdir();
mkdirSync(reportsRoot, { recursive: true });
const out = mkdtempSync(join(reportsRoot, 'clipit-jest-'));
/** Folders this run made for its caches, removed when it ends. */
const runFolders = [];
/** Names a folder of this run's own in `variable`, which every step's processes inherit, unless the caller set one. */
function runFolder(variable, prefix) {
  if (process.env[variable]) return;
  process.env[variable] = mkdtempSync(join(tmpdir(), prefix));
  runFolders.push(process.env[variable]);
}
// Clips the tests synthesize, encoded once for the whole run and copied after that (synthesizeClip in libs/media).
runFolder('CLIPIT_SYNTH_CACHE', 'clipit-synth-');
// Node's compile cache: the hundreds of Node processes the run starts (Jest workers, tsc, ESLint, Nx, the fault
// platform's services and their restarts, worker processes) compile the same modules once.
runFolder('NODE_COMPILE_CACHE', 'clipit-compile-cache-');
const only = process.argv.slice(2);
const results = { numTotalTests: 0, numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
const reports = [];
let reportCount = 0;
/** A phase of one step, its output shown as it comes. */
const alone = (s) => phase(s.name, [[s]]);
/** A Jest run as a step, each in a process of its own (a fresh heap, which no earlier file's leftovers weigh on). */
const jest = (name, args, nodeOptions = '--max-old-space-size=6144') => ({
  name,
  args: ['--experimental-vm-modules', bin('jest/bin/jest.js'), ...args],
  env: { NODE_OPTIONS: `--no-warnings=ExperimentalWarning ${nodeOptions}`.trim() },
  report: join(out, `report-${reportCount++}.json`),
});

// The static checks. Lint is two programs (scripts/lint.mjs, `npm run lint`): ESLint, then oxlint's type-aware
// rules (typed by TypeScript 7); the type-check (the root tsconfig references every project and
// tsconfig.tests.json, so sources and tests) comes first in its lane, the quick generated-file checks after it.
const LINT = LINTERS.map((linter) => ({ name: `lint (${linter.name})`, args: linter.args(['.']) }));
const CHECKS = [
  { name: 'type-check', args: [bin('typescript-native/bin/tsc'), '-b', 'tsconfig.json'] },
  { name: 'contracts up to date', args: ['scripts/proto-gen.mjs', '--check'] },
  { name: 'remote types up to date', args: ['scripts/remote-types.mjs', '--check'] },
  { name: 'web api types up to date', args: ['scripts/web-api-types.mjs', '--check'] },
  {
    name: 'OpenAPI document lint',
    args: [bin('@redocly/cli/bin/cli.js'), 'lint', 'docs/api/openapi.json'],
    env: { REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  },
  { name: 'versions up to date', args: ['scripts/versions.mjs', '--check'] },
  // One format for the whole tree (.prettierrc.json; generated files are in .prettierignore).
  { name: 'format (prettier --check)', args: [bin('prettier/bin/prettier.cjs'), '--check', '--log-level=warn', '.'] },
  // The guard every benchmark puts between its baseline and the ratio it prints (scripts/bench/baseline.mjs).
  { name: 'benchmark baseline guard', args: ['--test', 'scripts/bench/baseline.test.mjs'] },
];

if (only.length > 0) {
  // `npm test -- <jest arguments>`: the static checks, then only the tests asked for.
  await phase('static checks', [LINT, CHECKS]);
  await alone(jest('jest', only));
  finish(0);
}

// The whole suite, in phases that keep both cores busy (ADR 0030). What shares a phase was chosen by what
// each step needs of the machine:
// - The type-check lane uses one core and the unit, UI and web specs (swc, no types) the other.
// - Integration, e2e and browser files wait on servers, Chromium and ffmpeg much of the time: each file
//   keeps about half a core busy, so they share one Jest with three workers, the longest files first (ADR
//   0030 records the other layouts tried, and why they were left out).
// - Some files hold what they time to a bound. The read-your-writes trials (each read within the 250 ms
//   bound of ADR 0043; beside a second platform on a slow machine, 2 reads in 1,000 went stale) run at the
//   normal priority beside a lane that runs niced (os.setPriority 10, inherited by every process its steps
//   start): the integration files named *.serial.int.spec.ts that time ffmpeg transcodes against a
//   worker's lock and stall check, one at a time, then the workspace tooling's files (the generators' and
//   `npm run affected`'s: a scratch workspace each, built, linted and tested by child processes, about 100
//   CPU-s that wait on nothing; early, beside the trials, and not beside the bad-input walk, whose pools
//   want PostgreSQL's connections to themselves), then lint (none of the servers). The trials' platform is
//   one Node process and keeps a core; the niced lane takes the other and whatever the trials and their
//   servers leave. After the trials, in their lane: the bad-input walk, which fills every
//   connection pool of its platform (seven services × 10: beside another platform PostgreSQL's 100
//   connections run out), then the fingerprint proofs, which time nothing but encode and print forty clips
//   two ffmpegs at a time (beside the platforms they starved their single event loops past their timeouts).
// - The fault suite last: its two shards side by side, each a platform of real processes on private
//   servers, each part down in the middle of the journeys, in the compressed time profile
//   (jest.faults.config.js, e2e/faults; the real-time one is `npm run test:faults:long`).
const SERIAL = '\\.serial\\.int\\.spec\\.ts$';
const E2E_ALONE = '(bad-input|read-your-writes)\\.e2e\\.spec\\.ts$';
/** A serial file that times nothing but keeps both cores on ffmpeg: after the trials, beside niced lint. */
const FINGERPRINT_PROOFS = 'libs/media/test/integration/fingerprint\\.serial\\.int\\.spec\\.ts$';
/** The workspace tooling's integration files: they time nothing, so they run in the niced lane, before lint. */
const TOOLING = 'libs/(tools/test/integration/generators|testing/test/integration/affected)\\.int\\.spec\\.ts$';
await phase('the type-check and the unit, UI and web specs', [
  CHECKS,
  [jest('jest (unit, ui, web)', ['--selectProjects', 'unit', 'ui', 'web'])],
]);
await alone(
  jest('jest (integration, e2e, browser: three workers)', [
    '--selectProjects',
    'integration',
    'e2e',
    'browser',
    '--maxWorkers=3',
    '--testPathIgnorePatterns',
    `(${SERIAL})|(${E2E_ALONE})|(${TOOLING})`,
  ]),
);
await phase('the serial files, the tooling files and lint (niced) beside the e2e files that run alone', [
  [
    {
      ...jest('jest (integration, serial files that time what they do, niced)', [
        '--selectProjects',
        'integration',
        '--runInBand',
        '--testPathPatterns',
        SERIAL,
        '--testPathIgnorePatterns',
        FINGERPRINT_PROOFS,
      ]),
      nice: 10,
    },
    {
      ...jest("jest (integration, the workspace tooling's files, niced)", [
        '--selectProjects',
        'integration',
        '--runInBand',
        '--testPathPatterns',
        TOOLING,
      ]),
      nice: 10,
    },
    ...LINT.map((step) => ({ ...step, name: `${step.name}, niced`, nice: 10 })),
  ],
  [
    jest('jest (e2e, the bad-input walk and the read-your-writes trials, one after the other)', [
      '--selectProjects',
      'e2e',
      '--runInBand',
      '--testPathPatterns',
      E2E_ALONE,
    ]),
    jest('jest (integration, the fingerprint proofs)', [
      '--selectProjects',
      'integration',
      '--runInBand',
      '--testPathPatterns',
      FINGERPRINT_PROOFS,
    ]),
  ],
]);
await alone(jest('fault suite (npm run test:faults)', ['-c', 'jest.faults.config.js'], ''));
finish(0);

/** Prints the timing report (each step, each Jest project, the slowest files) and ends the run. */
function finish(code) {
  recordGauge('at the end');
  const files = reports.filter((r) => existsSync(r)).flatMap((r) => filesOfReport(r));
  console.log(`\nWhere the time went (a report, not a test; budgets: npm test 20 min, CI 30 min on 2 cores):\n`);
  console.log(renderReport({ steps: timings, files, totalSeconds: (Date.now() - started) / 1000 }));
  if (!process.env['KEEP_REPORTS']) rmSync(out, { recursive: true, force: true });
  else console.log(`\nJest reports kept in ${out}`);
  for (const folder of runFolders) rmSync(folder, { recursive: true, force: true });
  if (code !== 0) process.exit(code);
  if (results.numTotalTests === 0) {
    console.error('no test ran');
    process.exit(1);
  }
  console.log(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`);
  process.exit(0);
}
