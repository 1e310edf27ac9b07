// `npm run affected`: lint, type-check and test only what a change touches, for a team's inner loop and
// before a push. Nx's affected graph (nx.json, scripts/affected/nx-plugin.mjs) turns the files changed since
// the merge base with main into projects: a project's own change, everything that depends on it, every
// project when a shared root file changes (package-lock.json, tsconfig.base.json, jest.config.js, …), and the
// root project (journeys under e2e/, deploy and k8s checks) when any service or web app changes.
// CI (`.ci/run` → `npm test`) and main still run everything.
//
//   npm run affected                        against main: commits since it, plus uncommitted and untracked files
//   npm run affected -- --base origin/main  another base
//   npm run affected -- --head HEAD         commits only (base...HEAD), ignoring the working tree
//   npm run affected -- --no-journeys       leave out e2e/ (journeys start the whole platform)
//   npm run affected -- --dry-run [--json]  print the plan, run nothing
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { commands } from './affected/checks.mjs';
import { plan } from './affected/plan.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: options } = parseArgs({
  options: {
    base: { type: 'string' },
    head: { type: 'string' },
    'no-journeys': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const base = options.base ?? JSON.parse(readFileSync(join(root, 'nx.json'), 'utf8')).defaultBase ?? 'main';

const started = Date.now();
let decided;
try {
  decided = await plan({ cwd: root, base, head: options.head, journeys: !options['no-journeys'] });
} catch (err) {
  console.error(`npm run affected: ${err.message}`);
  process.exit(2);
}
const { steps, projects } = decided;

if (options.json) {
  console.log(JSON.stringify(decided, null, 2));
  process.exit(0);
}

console.log(`changed since ${base} (merge base ${decided.mergeBase.slice(0, 10)}) in ${decided.head}: ${decided.files.length} file(s)`);
for (const note of decided.ignored) console.log(`  not counted: ${note}`);
if (projects.length === 0) {
  console.log('no project is affected: nothing to check');
  process.exit(0);
}
console.log(`affected (${projects.length}): ${projects.map((p) => p.name).join(', ')}`);

const timings = [];
function step(name, args, env = {}) {
  if (options['dry-run']) {
    console.log(`\n▷ ${name}\n  node ${args.join(' ')}`);
    return;
  }
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_ISOLATE_PLUGINS: 'false', ...env },
  });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  timings.push(`${name} ${secs}s`);
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${r.status ?? r.signal}) after ${secs}s`);
    process.exit(r.status || 1);
  }
}

if (steps.lint.length > 0) step(`lint (${steps.lint.join(' ')})`, commands.lint(steps.lint));
if (steps.typecheck.length > 0) step(`type-check (${steps.typecheck.join(' ')})`, commands.typecheck(steps.typecheck));
for (const { name, args } of steps.generated) step(name, args);
step(`jest (${steps.test.jestProjects.join(', ')} in ${steps.test.paths.join(' ')})`, commands.test(root, steps.test), {
  NODE_OPTIONS: '--no-warnings=ExperimentalWarning',
});
if (!options['dry-run']) console.log(`\n${timings.join(' · ')} · total ${((Date.now() - started) / 1000).toFixed(1)}s`);
