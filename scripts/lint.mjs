// `npm run lint [-- <paths…>]`: the workspace's lint, over the paths given (the whole workspace by default).
//   1. ESLint (eslint.config.js): the rules that read one file at a time, module boundaries included.
//   2. oxlint (.oxlintrc.json): the rules that need every file's types (floating and misused promises, await
//      on non-thenables, exhaustive switches), typed by TypeScript 7 through each file's own tsconfig.
// Both run even when the first fails, so one run reports everything; the exit code is the first failure's.
// ADR 0030 says why the type-aware rules are oxlint's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TYPESCRIPT = /\.(?:tsx?|[cm]ts)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.nx', '.git']);

/** Whether `path` is, or holds, a TypeScript file (oxlint fails on a path with nothing to lint). */
function holdsTypeScript(path) {
  if (!existsSync(path)) return false;
  if (!statSync(path).isDirectory()) return TYPESCRIPT.test(path);
  return readdirSync(path, { withFileTypes: true }).some((entry) =>
    entry.isDirectory() ? !SKIPPED.has(entry.name) && holdsTypeScript(join(path, entry.name)) : TYPESCRIPT.test(entry.name),
  );
}

/** The two linters, each as the arguments of a Node run over `paths` (`npm test` runs them as steps of its own). */
export const LINTERS = [
  {
    name: 'ESLint',
    args: (paths) => [join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings=0', '--no-error-on-unmatched-pattern', ...paths],
  },
  { name: 'oxlint, the type-aware rules', args: (paths) => [join(root, 'node_modules/oxlint/bin/oxlint'), ...paths] },
];

/** Runs the linters over `paths` (relative to the workspace root) and returns the exit code. */
export function lint(paths = ['.']) {
  const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
  const [eslint, oxlint] = LINTERS;
  const typed = paths.filter((p) => holdsTypeScript(join(root, p)));
  const codes = [run(eslint.args(paths)), typed.length > 0 ? run(oxlint.args(typed)) : 0];
  return codes.find((code) => code !== 0) ?? 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const paths = process.argv.slice(2);
  process.exit(lint(paths.length > 0 ? paths : ['.']));
}
