// Which checks a change needs: the files changed since a base (committed, and by default also uncommitted
// and untracked ones), the projects Nx's affected graph marks for them, and the merged lint / type-check /
// test commands of those projects (checks.mjs). Everything runs in `cwd`, a checkout of this workspace.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JOURNEY_PROJECTS, lintPaths, testSelection, tsconfigs } from './checks.mjs';

const LOCK = 'package-lock.json';
// Plugins load in Nx's own process (NX_ISOLATE_PLUGINS=false): isolated, each of the two is a Node process of
// its own per Nx run, 3.1 instead of 1.5 CPU-s for the same graph. They are the workspace's own and @nx/js's.
const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_ISOLATE_PLUGINS: 'false' };

function git(cwd, args, { allowFailure = false } = {}) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0 && !allowFailure) throw new Error(`git ${args.join(' ')}: ${(r.stderr || r.stdout).trim()}`);
  return r.status === 0 ? r.stdout : undefined;
}
const lines = (text) => (text ?? '').split('\n').filter(Boolean);

/**
 * Files changed between the merge base of `base` and `head` and `head`; without `head`, between that merge
 * base and the working tree, untracked files included (what a person is about to commit or push).
 */
export function changedFiles({ cwd, base, head }) {
  if (git(cwd, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`], { allowFailure: true }) === undefined) {
    throw new Error(`the base "${base}" is not a commit here: fetch it (git fetch origin ${base}:${base}) or pass --base <ref>`);
  }
  const mergeBase = git(cwd, ['merge-base', base, head ?? 'HEAD']).trim();
  const files = head
    ? lines(git(cwd, ['diff', '--name-only', '--no-renames', mergeBase, head]))
    : [
        ...lines(git(cwd, ['diff', '--name-only', '--no-renames', mergeBase])),
        ...lines(git(cwd, ['ls-files', '--others', '--exclude-standard'])),
      ];
  return { mergeBase, files: [...new Set(files)].sort() };
}

/**
 * Whether package-lock.json differs only in the versions of the workspace's own packages. npm records each
 * workspace's version in the lock file, so a team bumping its service's version changes it; that is not a
 * dependency change and must not mark every project affected (Nx would: any change to the lock file does).
 */
export function lockChangeIsOnlyWorkspaceVersions(before, after) {
  if (before === undefined || after === undefined) return false;
  const strip = (text) => {
    const lock = JSON.parse(text);
    for (const [path, entry] of Object.entries(lock.packages ?? {})) {
      if (path !== '' && !path.startsWith('node_modules/') && !path.includes('/node_modules/')) delete entry.version;
    }
    return JSON.stringify(lock);
  };
  try {
    return strip(before) === strip(after);
  } catch {
    return false;
  }
}

function run(cwd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(cwd, 'node_modules/.bin/nx'), ...args], {
      cwd,
      env: { ...process.env, ...NX_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`nx ${args.join(' ')} failed (${code}):\n${err || out}`))));
  });
}

/**
 * Nx's affected projects for these files, with each project's root and tags. One Nx process: the task graph
 * of `nx affected -t lint` (written, not run) names the affected projects, since every project has a lint
 * target (nx-plugin.mjs), and carries the project graph beside it.
 */
export async function affectedProjects(cwd, files) {
  if (files.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'clipit-affected-'));
  try {
    const graphFile = join(dir, 'graph.json');
    await run(cwd, ['affected', '-t', 'lint', `--files=${files.join(',')}`, `--graph=${graphFile}`]);
    const { graph, tasks } = JSON.parse(readFileSync(graphFile, 'utf8'));
    const names = [...new Set(Object.values(tasks.tasks).map((task) => task.target.project))];
    return names
      .map((name) => ({ name, root: graph.nodes[name].data.root, tags: graph.nodes[name].data.tags ?? [] }))
      .sort((a, b) => a.root.localeCompare(b.root));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const union = (lists) => [...new Set(lists.flat())].sort();
// libs/testing covers libs/testing/test/integration: Jest gets the outermost folders only.
const outermost = (paths) => paths.filter((p) => !paths.some((other) => other !== p && p.startsWith(`${other}/`)));

/** The steps for these projects: one lint, one type-check, the generated-code checks they own, one Jest run. */
export function stepsFor(projects, { cwd, journeys = true }) {
  const roots = projects.map((p) => p.root);
  const selections = roots.map(testSelection);
  const jestProjects = union(selections.map((s) => s.jestProjects)).filter((p) => journeys || !JOURNEY_PROJECTS.includes(p));
  const has = (predicate) => projects.some(predicate);
  const named = (...names) => has((p) => names.includes(p.name));
  // Generated code is checked with the projects it comes from; a script not in this checkout is skipped.
  const generated = [
    // gRPC types from proto/, with the contracts library (which a .proto change marks affected);
    { name: 'contracts up to date', script: 'scripts/proto-gen.mjs', when: named('@clipit/contracts') },
    // the shell's types of the remotes, whenever a web app changes;
    { name: 'remote types up to date', script: 'scripts/remote-types.mjs', when: has((p) => p.tags.includes('type:frontend')) },
    // the web apps' API types, from the gateway's OpenAPI document;
    { name: 'web api types up to date', script: 'scripts/web-api-types.mjs', when: named('@clipit/gateway', '@clipit/web-api') },
    // each deployable's image tag and labels, with the deploy files the root project owns.
    { name: 'versions up to date', script: 'scripts/versions.mjs', when: has((p) => p.root === '.') },
  ]
    .filter((check) => check.when && existsSync(join(cwd, check.script)))
    .map(({ name, script }) => ({ name, args: [script, '--check'] }));
  return {
    lint: union(roots.map((r) => lintPaths(r, cwd))),
    typecheck: union(roots.map((r) => tsconfigs(r, cwd))),
    generated,
    test: { jestProjects, paths: outermost(union(selections.map((s) => s.paths))) },
  };
}

/** Everything `npm run affected` decides before running anything. */
export async function plan({ cwd, base, head, journeys = true }) {
  const { mergeBase, files: changed } = changedFiles({ cwd, base, head });
  let files = changed;
  let ignored = [];
  if (changed.includes(LOCK)) {
    const before = git(cwd, ['show', `${mergeBase}:${LOCK}`], { allowFailure: true });
    const after = head
      ? git(cwd, ['show', `${head}:${LOCK}`], { allowFailure: true })
      : existsSync(join(cwd, LOCK))
        ? readFileSync(join(cwd, LOCK), 'utf8')
        : undefined;
    if (lockChangeIsOnlyWorkspaceVersions(before, after)) {
      files = changed.filter((f) => f !== LOCK);
      ignored = [`${LOCK} (only workspace versions changed)`];
    }
  }
  const projects = await affectedProjects(cwd, files);
  return { base, head: head ?? 'working tree', mergeBase, files: changed, ignored, projects, steps: stepsFor(projects, { cwd, journeys }) };
}
