// What lint, type-check and test mean for one Nx project of this workspace, decided once: the Nx plugin
// (nx-plugin.mjs) turns it into each project's `lint`, `typecheck` and `test` targets, and `npm run affected`
// merges it over every affected project into one ESLint, one `tsc -b` and one Jest run (three processes,
// not three per project: these machines have two cores).
//
// Projects are the npm workspaces (libs/*, services/*, frontends/*) and the root project `clipit` ("."),
// which owns everything else: e2e/, scripts/, deploy/, k8s/, docker-compose.yml and the root config files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PROJECT_DIRS = ['libs', 'services', 'frontends'];

/** Jest projects (jest.config.js) holding tests that sit inside a project's folder. */
export const OWN_TEST_PROJECTS = ['unit', 'integration', 'ui', 'web'];
/** Jest projects holding the journeys (e2e/): the root project's, run whenever a service or front end changes. */
export const JOURNEY_PROJECTS = ['e2e', 'browser'];
// The checks of root-owned files (deploy/, k8s/, docker-compose.yml, CODEOWNERS, versions, this script) live
// with the testing kit, the one place the integration project looks for workspace tests.
export const WORKSPACE_CHECKS_DIR = 'libs/testing/test/integration';

const LINTED = /\.(?:[cm]?js|tsx?|[cm]ts)$/;
// Tests of Node projects (specs and test/) are type-checked by one program, tsconfig.tests.json.
const TESTS_TSCONFIG = 'tsconfig.tests.json';

const isRoot = (projectRoot) => projectRoot === '.' || projectRoot === '';

/** Paths the linters (scripts/lint.mjs) are given for a project: its folder, or for the root project what no other project owns. */
export function lintPaths(projectRoot, workspaceRoot) {
  if (!isRoot(projectRoot)) return [projectRoot];
  return readdirSync(workspaceRoot)
    .filter((name) => !name.startsWith('.') && name !== 'node_modules' && !PROJECT_DIRS.includes(name))
    .filter((name) => statSync(join(workspaceRoot, name)).isDirectory() || LINTED.test(name))
    .sort();
}

/** The tsconfig files `tsc -b` checks for a project: those of its folder the root tsconfig.json references, and the tests' program. */
export function tsconfigs(projectRoot, workspaceRoot) {
  if (isRoot(projectRoot)) return [TESTS_TSCONFIG];
  const references = JSON.parse(readFileSync(join(workspaceRoot, 'tsconfig.json'), 'utf8')).references ?? [];
  const own = references
    .map(({ path }) => (path.endsWith('.json') ? path : `${path}/tsconfig.json`))
    .filter((file) => file.startsWith(`${projectRoot}/`) && existsSync(join(workspaceRoot, file)));
  const testedByTestsProgram = ['libs/', 'services/'].some((dir) => projectRoot.startsWith(dir));
  return testedByTestsProgram ? [...own, TESTS_TSCONFIG] : own;
}

/**
 * What Jest runs for a project: which Jest projects, restricted to which folders (paths relative to the
 * workspace root). A project's own tests sit in its folder; the root project's are the journeys and the
 * workspace checks.
 */
export function testSelection(projectRoot) {
  if (isRoot(projectRoot)) return { jestProjects: ['integration', ...JOURNEY_PROJECTS], paths: ['e2e', WORKSPACE_CHECKS_DIR] };
  return { jestProjects: OWN_TEST_PROJECTS, paths: [projectRoot] };
}

/** The Jest path filter for folders: anchored at the workspace root, so `libs/ui` never matches `libs/ui-kit`. */
export function jestPathPattern(workspaceRoot, paths) {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const root = workspaceRoot.endsWith('/') ? workspaceRoot : `${workspaceRoot}/`;
  return `^${escape(root)}(${paths.map(escape).join('|')})/`;
}

export const commands = {
  // ESLint, then oxlint's type-aware rules (scripts/lint.mjs).
  lint: (paths) => ['scripts/lint.mjs', ...paths],
  typecheck: (files) => ['node_modules/typescript-native/bin/tsc', '-b', ...files],
  test: (workspaceRoot, { jestProjects, paths }) => [
    '--experimental-vm-modules',
    'node_modules/jest/bin/jest.js',
    '--passWithNoTests',
    '--selectProjects',
    ...jestProjects,
    '--testPathPatterns',
    jestPathPattern(workspaceRoot, paths),
  ],
};
