// Nx plugin (nx.json "plugins"): gives every project `lint`, `typecheck` and `test` targets, each reading the
// project's files and the workspace's shared ones (namedInputs "default" in nx.json). Besides making
// `nx affected -t lint typecheck test` work project by project, the targets' inputs are how Nx learns that a
// change to a root file (package-lock.json, tsconfig.base.json, jest.config.js, …) affects every project:
// Nx's affected graph only looks at files named in some target's inputs. What each target runs comes from
// checks.mjs, which `npm run affected` uses too.
import { dirname } from 'node:path';
import { commands, lintPaths, PROJECT_DIRS, testSelection, tsconfigs } from './checks.mjs';

const quote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
const run = (args) => ({
  executor: 'nx:run-commands',
  options: { command: ['node', ...args].map(quote).join(' '), cwd: '{workspaceRoot}' },
  inputs: ['default', '^default'],
  cache: false,
});

function targets(projectRoot, workspaceRoot) {
  const result = {
    lint: run(commands.lint(lintPaths(projectRoot, workspaceRoot))),
    test: run(commands.test(workspaceRoot, testSelection(projectRoot))),
  };
  const files = tsconfigs(projectRoot, workspaceRoot);
  // A project of plain JavaScript (libs/frontend-build) has nothing to type-check.
  if (files.length > 0) result.typecheck = run(commands.typecheck(files));
  return result;
}

const isProjectManifest = (file) =>
  file === 'package.json' || PROJECT_DIRS.some((dir) => new RegExp(`^${dir}/[^/]+/package\\.json$`).test(file));

export const createNodes = [
  '{package.json,*/*/package.json}',
  (files, _options, context) =>
    files.filter(isProjectManifest).map((file) => {
      const root = dirname(file);
      return [file, { projects: { [root]: { targets: targets(root, context.workspaceRoot) } } }];
    }),
];

export default { name: 'clipit-checks', createNodes };
