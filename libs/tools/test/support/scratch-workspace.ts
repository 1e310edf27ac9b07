// A scratch copy of this workspace for the generators' tests: the files git sees, node_modules reaching the
// installed packages, and the workspace's own packages linked to the copy's folders.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** The workspace root: Jest runs from it (this package compiles as CommonJS, so no import.meta here). */
function workspaceRoot(): string {
  for (let dir = process.cwd(); dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'clipit') return dir;
  }
  throw new Error('not inside the clipit workspace');
}
const ROOT = workspaceRoot();
export const NODE = process.execPath;

/** Runs a command in the scratch workspace; answers its output, or fails the test with it. */
export function run(scratch: string, command: string, args: string[], timeoutMs = 240_000): string {
  const r = spawnSync(command, args, {
    cwd: scratch,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', FORCE_COLOR: '0' },
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`${[command, ...args].join(' ')} exited ${r.status ?? r.signal}:\n${output.slice(-6000)}`);
  return output;
}

/**
 * This workspace's files as git sees them (tracked, and new ones not ignored), and a node_modules that
 * reaches the installed packages but links the workspace's own packages to the scratch copy's folders.
 */
export function scratchWorkspace(): string {
  const scratch = mkdtempSync(join(tmpdir(), 'clipit-generator-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    cpSync(join(ROOT, file), join(scratch, file));
  }
  const modules = join(scratch, 'node_modules');
  mkdirSync(join(modules, '@clipit'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry !== '@clipit') symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  linkWorkspacePackages(scratch);
  execFileSync('git', ['init', '-q'], { cwd: scratch });
  return scratch;
}

/** What `npm install` does for workspace packages: node_modules/@clipit/<name> → the package's folder. */
export function linkWorkspacePackages(scratch: string): void {
  for (const group of ['libs', 'services', 'frontends']) {
    for (const folder of readdirSync(join(scratch, group))) {
      const pkg = join(scratch, group, folder, 'package.json');
      if (!existsSync(pkg)) continue;
      const link = join(scratch, 'node_modules', '@clipit', basename((JSON.parse(readFileSync(pkg, 'utf8')) as { name: string }).name));
      if (!existsSync(link)) symlinkSync(join('..', '..', group, folder), link);
    }
  }
}
