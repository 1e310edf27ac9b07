// `npm run affected` checks what a change touches and no more: the plan (scripts/affected/plan.mjs) is
// computed for real changes in a scratch git copy of this workspace, through Nx's affected graph, against
// a `main` branch made there. A service's change checks that service and the journeys; a library's, its
// dependents; a shared root file, everything; a version bump, only the bumped service.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Project {
  name: string;
  root: string;
  tags: string[];
}
interface Steps {
  lint: string[];
  typecheck: string[];
  generated: { name: string; args: string[] }[];
  test: { jestProjects: string[]; paths: string[] };
}
interface Plan {
  files: string[];
  ignored: string[];
  projects: Project[];
  steps: Steps;
}
interface PlanModule {
  plan(options: { cwd: string; base: string; head?: string; journeys?: boolean }): Promise<Plan>;
  lockChangeIsOnlyWorkspaceVersions(before: string, after: string): boolean;
  stepsFor(projects: Project[], options: { cwd: string; journeys?: boolean }): Steps;
}

let planner: PlanModule;
let repo: string;
let allProjects: string[];

function git(...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=affected test', '-c', 'user.email=affected@test.invalid', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
const edit = (file: string, change: (text: string) => string) =>
  writeFileSync(join(repo, file), change(readFileSync(join(repo, file), 'utf8')));
const append = (file: string) => edit(file, (text) => `${text}\n// touched by the affected test\n`);
/** Commits (or not) a change on a branch off main, plans it, and puts the scratch repo back on a clean main. */
async function planFor(change: () => void, options: { commit?: boolean; head?: string; journeys?: boolean } = {}): Promise<Plan> {
  git('checkout', '-q', '-B', 'change', 'main');
  change();
  if (options.commit ?? true) {
    git('add', '-A');
    git('commit', '-q', '-m', 'change');
  }
  try {
    return await planner.plan({
      cwd: repo,
      base: 'main',
      ...(options.head ? { head: options.head } : {}),
      ...(options.journeys === false ? { journeys: false } : {}),
    });
  } finally {
    git('reset', '-q', '--hard');
    git('clean', '-q', '-fd');
    git('checkout', '-q', 'main');
  }
}
const names = (plan: Plan) => plan.projects.map((p) => p.name).sort();

beforeAll(async () => {
  planner = (await import(pathToFileURL(join(ROOT, 'scripts/affected/plan.mjs')).href)) as PlanModule;
  // The workspace as it is on disk (tracked and new files, not ignored ones), committed as `main` of a
  // scratch repository that shares this checkout's node_modules.
  repo = mkdtempSync(join(tmpdir(), 'clipit-affected-'));
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    // A file deleted but not yet committed is listed and gone: skip it.
    try {
      cpSync(join(ROOT, file), join(repo, file));
    } catch {
      continue;
    }
  }
  const nx = spawnSync(join(ROOT, 'node_modules/.bin/nx'), ['show', 'projects', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_ISOLATE_PLUGINS: 'false' },
  });
  allProjects = (JSON.parse(nx.stdout) as string[]).sort();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'main');
  // A symlink is not matched by .gitignore's `node_modules/`: excluded here, or `git clean` would take it.
  writeFileSync(join(repo, '.git/info/exclude'), 'node_modules\n');
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
}, 60_000);

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const ALL_JEST = ['browser', 'e2e', 'integration', 'ui', 'unit', 'web'];
const SERVICES = ['@clipit/gateway', '@clipit/identity', '@clipit/media-worker', '@clipit/submissions'];

describe('npm run affected: the plan for a change', () => {
  it("one service: that service and the root project's journeys and workspace checks, nothing else", async () => {
    const plan = await planFor(() => append('services/identity/src/main.ts'));
    expect(plan.files).toEqual(['services/identity/src/main.ts']);
    expect(names(plan)).toEqual(['@clipit/identity', 'clipit']);
    expect(plan.steps.lint).toContain('services/identity');
    expect(plan.steps.lint.filter((p) => /^(libs|services|frontends)\//.test(p))).toEqual(['services/identity']);
    expect(plan.steps.typecheck).toEqual(['services/identity/tsconfig.json', 'tsconfig.tests.json']);
    expect(plan.steps.generated.map((g) => g.name)).toEqual(['versions up to date']);
    expect(plan.steps.test).toEqual({ jestProjects: ALL_JEST, paths: ['e2e', 'libs/testing/test/integration', 'services/identity'] });
  });

  it('leaves the journeys out when asked (--no-journeys)', () => {
    const steps = planner.stepsFor(
      [
        { name: '@clipit/identity', root: 'services/identity', tags: ['type:service'] },
        { name: 'clipit', root: '.', tags: [] },
      ],
      { cwd: ROOT, journeys: false },
    );
    expect(steps.test.jestProjects).toEqual(['integration', 'ui', 'unit', 'web']);
  });

  it('a library: it and everything that depends on it, uncommitted changes included', async () => {
    const plan = await planFor(() => append('libs/contracts/src/index.ts'), { commit: false });
    expect(names(plan)).toEqual(expect.arrayContaining(['@clipit/contracts', '@clipit/service-kit', ...SERVICES, 'clipit']));
    // Not the libraries it does not reach, nor the web apps.
    expect(
      names(plan).filter((n) => ['@clipit/storage', '@clipit/ui', '@clipit/web-api', '@clipit/public', '@clipit/shell'].includes(n)),
    ).toEqual([]);
    expect(plan.steps.generated.map((g) => g.name)).toEqual(expect.arrayContaining(['contracts up to date', 'versions up to date']));
    expect(plan.steps.generated.map((g) => g.name)).not.toContain('remote types up to date');
  });

  it("a gRPC contract under proto/: the contracts library's dependents, though proto/ belongs to no library", async () => {
    const plan = await planFor(() => edit('proto/identity/v1/identity.proto', (t) => `${t}\n// touched\n`));
    expect(names(plan)).toEqual(expect.arrayContaining(['@clipit/contracts', ...SERVICES]));
    expect(names(plan)).not.toContain('@clipit/public');
  });

  it("a web app, with an untracked new file: that app, the shell's remote types and the journeys", async () => {
    const plan = await planFor(() => writeFileSync(join(repo, 'frontends/public/src/new-screen.ts'), 'export const x = 1;\n'), {
      commit: false,
    });
    expect(plan.files).toEqual(['frontends/public/src/new-screen.ts']);
    expect(names(plan)).toEqual(['@clipit/public', 'clipit']);
    expect(plan.steps.generated.map((g) => g.name)).toEqual(['remote types up to date', 'versions up to date']);
    expect(plan.steps.test.paths).toEqual(['e2e', 'frontends/public', 'libs/testing/test/integration']);
  });

  it.each(['jest.config.js', '.oxlintrc.json', '.ci/run'])('a shared root file (%s): every project', async (file) => {
    const plan = await planFor(() => edit(file, (t) => `${t}\n`));
    expect(names(plan)).toEqual(allProjects);
  });

  it('counts the root files every project depends on as shared (nx.json sharedGlobals)', () => {
    const nx = JSON.parse(readFileSync(join(ROOT, 'nx.json'), 'utf8')) as { namedInputs: Record<string, string[]> };
    expect(nx.namedInputs['default']).toEqual(expect.arrayContaining(['{projectRoot}/**/*', 'sharedGlobals']));
    const shared = [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'jest.config.js',
      'eslint.config.js',
      '.oxlintrc.json',
      '.ci/run',
    ];
    expect(nx.namedInputs['sharedGlobals']).toEqual(expect.arrayContaining(shared.map((f) => `{workspaceRoot}/${f}`)));
  });

  it("a service's version bump (its package.json and its line in package-lock.json): only that service", async () => {
    const plan = await planFor(() => {
      edit('services/submissions/package.json', (t) => t.replace(/"version": "[^"]+"/, '"version": "9.9.9"'));
      edit('package-lock.json', (t) => t.replace(/("name": "@clipit\/submissions",\n\s+"version": )"[^"]+"/, '$1"9.9.9"'));
    });
    expect(plan.files).toEqual(['package-lock.json', 'services/submissions/package.json']);
    expect(plan.ignored).toEqual(['package-lock.json (only workspace versions changed)']);
    expect(names(plan)).toEqual(['@clipit/submissions', 'clipit']);
  });

  it('a real dependency change in package-lock.json: every project', async () => {
    const plan = await planFor(() =>
      edit('package-lock.json', (t) => t.replace(/("node_modules\/zod": \{\n\s+"version": )"[^"]+"/, '$1"0.0.1"')),
    );
    expect(plan.ignored).toEqual([]);
    expect(names(plan)).toEqual(expect.arrayContaining([...SERVICES, '@clipit/ui', '@clipit/shell', 'clipit']));
  });

  it('--head: commits only, whatever the working tree holds; nothing changed: nothing to check', async () => {
    const plan = await planFor(
      () => {
        append('services/identity/src/main.ts');
        git('add', '-A');
        git('commit', '-q', '-m', 'committed');
        append('libs/storage/src/index.ts');
      },
      { commit: false, head: 'HEAD' },
    );
    expect(names(plan)).toEqual(['@clipit/identity', 'clipit']);
    const nothing = await planFor(() => undefined, { commit: false });
    expect({ files: nothing.files, projects: nothing.projects }).toEqual({ files: [], projects: [] });
  });
});

describe('lockChangeIsOnlyWorkspaceVersions', () => {
  const lock = (identity: string, zod: string) =>
    JSON.stringify({
      packages: {
        '': { version: '0.1.0' },
        'services/identity': { name: '@clipit/identity', version: identity },
        'node_modules/zod': { version: zod },
      },
    });

  it('ignores the versions of workspace packages, and nothing else', () => {
    expect(planner.lockChangeIsOnlyWorkspaceVersions(lock('0.1.0', '4.0.0'), lock('0.2.0', '4.0.0'))).toBe(true);
    expect(planner.lockChangeIsOnlyWorkspaceVersions(lock('0.1.0', '4.0.0'), lock('0.2.0', '4.0.1'))).toBe(false);
    expect(planner.lockChangeIsOnlyWorkspaceVersions(lock('0.1.0', '4.0.0'), 'not json')).toBe(false);
  });
});
