// A scratch copy of this workspace for the generators' tests: the files git sees, node_modules reaching the
// installed packages, and the workspace's own packages linked to the copy's folders.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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
    // Nx without its daemon, and with the plugins in its own process (scripts/affected/plan.mjs says why).
    env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_ISOLATE_PLUGINS: 'false', FORCE_COLOR: '0' },
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
  // A repository whose first commit is the copy, so what a generator wrote or changed can be listed (changedFiles).
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=generator test', '-c', 'user.email=generator-test@clipit.invalid', ...args], { cwd: scratch });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'the workspace as copied');
  return scratch;
}

/** The files written or changed since the copy was made (new ones included, deleted ones not), relative to it. */
export function changedFiles(scratch: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--modified', '--others', '--exclude-standard'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\0').filter(Boolean))].filter((file) => existsSync(join(scratch, file))).sort();
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

/** Builds each `services/<folder>` and type-checks their tests with the workspace's test settings, narrowed to them and the libraries they use. */
export function buildAndTypeCheckTests(scratch: string, folders: string[], libs: string[]): void {
  run(scratch, NODE, ['node_modules/typescript-native/bin/tsc', '-b', ...folders.map((folder) => `services/${folder}`)]);
  writeFileSync(
    join(scratch, 'tsconfig.generated-tests.json'),
    JSON.stringify({
      extends: './tsconfig.tests.json',
      include: [
        'types/**/*.d.ts',
        ...folders.flatMap((folder) => [`services/${folder}/src/**/*.spec.ts`, `services/${folder}/test/**/*.ts`]),
      ],
      references: [...libs.map((lib) => `libs/${lib}`), ...folders.map((folder) => `services/${folder}`)].map((path) => ({ path })),
    }),
  );
  run(scratch, NODE, ['node_modules/typescript-native/bin/tsc', '-b', 'tsconfig.generated-tests.json']);
}

/** Whether resolving the workspace again leaves the lock file the generator left as it is (in step). */
export function lockFileInStep(scratch: string): boolean {
  const lock = readFileSync(join(scratch, 'package-lock.json'), 'utf8');
  run(scratch, 'npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
  return readFileSync(join(scratch, 'package-lock.json'), 'utf8') === lock;
}

/**
 * Runs the new projects' unit and integration tests with the platform's deploy-config and ownership checks, and
 * answers Jest's output. The launcher's own start-up tests stay with the workspace's suite: they do not read the
 * service list differently.
 */
export function runOwnTestsAndDeployChecks(scratch: string, folders: string[]): string {
  return run(scratch, NODE, [
    '--experimental-vm-modules',
    'node_modules/jest/bin/jest.js',
    '--selectProjects',
    'unit',
    'integration',
    '--testPathPatterns',
    ...folders.map((folder) => `services/${folder}/`),
    'libs/testing/test/integration/(deploy-config|ownership)',
    '--testNamePattern',
    '^(?!deploy/launcher)',
  ]);
}
