// `npm test`: every check the platform has, in the order that fails fastest.
// First what the machine must provide (deploy/launcher/prerequisites.mjs, the checks `npm start` uses):
// PostgreSQL, NATS with JetStream and Redis at TEST_POSTGRES_URL / TEST_NATS_URL / TEST_REDIS_URL (local ones
// started, missing packages installed with apt-get as root on Debian), docker-compose, kubectl (or kustomize),
// Chromium and ffmpeg; anything still missing stops the run at once, named with the command that provides it.
// Then lint beside the type-check (sources and tests) and the checks that generated contracts, remote types,
// web API types, versions and the OpenAPI document are current → Jest (every project in jest.config.js: unit,
// UI, integration against the real Postgres/NATS/Redis, end-to-end journeys, the site in headless Chromium) →
// the fault suite (every part of the platform down in the middle of the journeys, in a compressed time
// profile; the real-time outages are `npm run test:faults:long`). Stops at the first failing step, and ends
// with a report of where the time went (scripts/test-report.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDependencies } from '../deploy/launcher/install-deps.mjs';
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
const cpuSince = (before) => {
  const now = childrenCpuSeconds();
  return before === undefined || now === undefined ? undefined : now - before;
};

/** Runs one step in the foreground; a failure ends the run unless `exit` is false (then it answers false). */
function step(name, args, env = {}, { exit = true } = {}) {
  const t0 = Date.now();
  const cpu0 = childrenCpuSeconds();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = (Date.now() - t0) / 1000;
  timings.push({ name, seconds, cpu: cpuSince(cpu0) });
  if (r.status === 0) return true;
  console.error(`\n✗ ${name} failed (exit ${r.status ?? r.signal}) after ${seconds.toFixed(1)}s`);
  if (exit) process.exit(r.status || 1);
  return false;
}

/**
 * Runs lanes of steps side by side (each lane's steps in order), each step's output shown whole when it ends;
 * after all lanes end, a failure in any ends the run.
 * @param {{ name: string, args: string[], env?: Record<string, string> }[][]} lanesOfSteps
 */
async function lanes(lanesOfSteps) {
  const t0 = Date.now();
  const cpu0 = childrenCpuSeconds();
  const failed = [];
  await Promise.all(
    lanesOfSteps.map(async (lane, laneIndex) => {
      for (const s of lane) {
        const began = Date.now();
        const { code, output } = await new Promise((resolve) => {
          const child = spawn(node, s.args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0', ...(s.env ?? {}) } });
          let output = '';
          child.stdout.on('data', (d) => (output += d));
          child.stderr.on('data', (d) => (output += d));
          child.on('close', (code, signal) => resolve({ code: code ?? signal, output }));
        });
        const seconds = (Date.now() - began) / 1000;
        timings.push({ name: s.name, seconds });
        console.log(`\n▶ ${s.name} (${seconds.toFixed(1)}s)${output.trim() ? `\n${output.trimEnd()}` : ''}`);
        if (code !== 0) {
          console.error(`\n✗ ${s.name} failed (exit ${code}) after ${seconds.toFixed(1)}s`);
          failed.push({ laneIndex, code });
          return;
        }
      }
    }),
  );
  timings.push({ name: `  (the checks above, side by side)`, seconds: (Date.now() - t0) / 1000, cpu: cpuSince(cpu0) });
  // The exit code of the first lane's failure (lanes in the order given), as one step after another would end.
  const first = failed.sort((a, b) => a.laneIndex - b.laneIndex)[0];
  if (first) process.exit(typeof first.code === 'number' && first.code > 0 ? first.code : 1);
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
}

// The static checks in two lanes side by side, one per core: lint alone (type-aware, the longest), and the
// type-check followed by the quick generated-file checks. Each lane's output is shown when its step ends.
await lanes([
  [{ name: 'lint', args: [bin('eslint/bin/eslint.js'), '--max-warnings=0', '.'] }],
  [
    // The root tsconfig references every project and tsconfig.tests.json, so this checks sources and tests.
    { name: 'type-check', args: [bin('typescript/bin/tsc'), '-b', 'tsconfig.json'] },
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
  ],
]);

const out = mkdtempSync(join(process.env['KEEP_REPORTS'] ?? tmpdir(), 'clipit-jest-'));
const only = process.argv.slice(2);
// Each group in a Jest process of its own (a fresh heap): a process would otherwise carry every test file's
// leftovers to the end. The file-heavy groups use both cores; see jest.config.js for each project's workers.
// A file named *.serial.int.spec.ts runs alone afterwards, in band: it times real work (ffmpeg transcodes
// against a worker's lock and stall check) that a second file on the other core would slow past its bounds.
const SERIAL = '\\.serial\\.int\\.spec\\.ts$';
// The bad-input walk fills every connection pool of its platform (seven services × 10); beside another e2e
// platform doing the same, PostgreSQL's 100 connections run out. It runs alone after the other e2e files.
const E2E_ALONE = 'bad-input\\.e2e\\.spec\\.ts$';
const GROUPS = [['unit', 'ui', 'web'], ['integration'], ['e2e'], ['browser']];
const runs =
  only.length > 0
    ? [{ name: 'jest', args: only }]
    : GROUPS.flatMap((g) =>
        g.includes('e2e')
          ? [
              { name: 'jest (e2e)', args: ['--selectProjects', 'e2e', '--testPathIgnorePatterns', E2E_ALONE] },
              {
                name: 'jest (e2e, the bad-input walk alone)',
                args: ['--selectProjects', 'e2e', '--runInBand', '--testPathPatterns', E2E_ALONE],
              },
            ]
          : g.includes('integration')
            ? [
                { name: `jest (${g.join(', ')})`, args: ['--selectProjects', ...g, '--testPathIgnorePatterns', SERIAL] },
                {
                  name: 'jest (integration, serial files alone)',
                  args: ['--selectProjects', 'integration', '--runInBand', '--testPathPatterns', SERIAL],
                },
              ]
            : [{ name: `jest (${g.join(', ')})`, args: ['--selectProjects', ...g] }],
      );
const results = { numTotalTests: 0, numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
const reports = [];
for (const [i, run] of runs.entries()) {
  const report = join(out, `report-${i}.json`);
  reports.push(report);
  const ok = step(
    run.name,
    ['--experimental-vm-modules', bin('jest/bin/jest.js'), '--json', `--outputFile=${report}`, ...run.args],
    {
      NODE_OPTIONS: '--no-warnings=ExperimentalWarning --max-old-space-size=6144',
    },
    { exit: false },
  );
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    for (const key of Object.keys(results)) results[key] += r[key];
  }
  if (!ok) finish(1);
}
// The fault suite last: the platform as real processes on private servers, each part down in the middle of
// the journeys, in the compressed time profile (jest.faults.config.js, e2e/faults). Skipped when only some
// tests were asked for.
if (only.length === 0) {
  const report = join(out, 'faults.json');
  reports.push(report);
  const ok = step(
    'fault suite (npm run test:faults)',
    ['--experimental-vm-modules', bin('jest/bin/jest.js'), '-c', 'jest.faults.config.js', '--json', `--outputFile=${report}`],
    { NODE_OPTIONS: '--no-warnings=ExperimentalWarning' },
    { exit: false },
  );
  if (!ok) finish(1);
}
finish(0);

/** Prints the timing report (each step, each Jest project, the slowest files) and ends the run. */
function finish(code) {
  const files = reports.filter((r) => existsSync(r)).flatMap((r) => filesOfReport(r));
  console.log(`\nWhere the time went (a report, not a test; budgets: npm test 20 min, CI 30 min on 2 cores):\n`);
  console.log(renderReport({ steps: timings, files, totalSeconds: (Date.now() - started) / 1000 }));
  if (!process.env['KEEP_REPORTS']) rmSync(out, { recursive: true, force: true });
  else console.log(`\nJest reports kept in ${out}`);
  if (code !== 0) process.exit(code);
  if (results.numTotalTests === 0) {
    console.error('no test ran');
    process.exit(1);
  }
  console.log(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`);
}
