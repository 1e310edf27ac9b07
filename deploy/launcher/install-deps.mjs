// `npm ci`, with one narrow fallback. npm records in package-lock.json only the platform-specific optional
// packages (@swc/core-darwin-arm64 and the like) that the registry it used could supply; when that
// registry lacked some of them, `npm ci` later refuses the lock file, listing each one as
// "Missing: <name>@ from lock file" (no version: it cannot resolve them either). Those packages are for
// other systems and never install here, so in that case, and only that one, the same lock file is
// installed with `npm install` and checked to be unchanged afterwards. Any other disagreement between
// package.json and the lock file fails as `npm ci` would.
// Used by the launcher (node_modules missing) and by .ci/run (`node deploy/launcher/install-deps.mjs`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LOCK_OUT_OF_SYNC = /can only install packages when your package\.json and package-lock\.json/;
const PROBLEM_LINE = /^npm error (Missing|Invalid): .*$/gm;
// npm names them with or without the version it would have wanted ("name@ from lock file" when the registry
// it asked has never heard of them, "name@1.2.3 from lock file" when it has).
const MISSING_PACKAGE = /^npm error Missing: (@?[^@\s]+)@(\S*) from lock file$/;

const ENGINE_WARNING = /^npm warn EBADENGINE/;

/**
 * npm's output without its EBADENGINE warnings, which only say that the machine's own Node is older than
 * packages ask: every script runs on the Node the workspace's `node` package brings. One line says so instead.
 * @param {string} stderr
 */
export function withoutEngineWarnings(stderr) {
  const lines = stderr.split('\n');
  const kept = lines.filter((line) => !ENGINE_WARNING.test(line));
  if (kept.length === lines.length) return stderr;
  return `npm: this machine's Node ${process.version} is older than some packages ask; that is expected, the scripts run on the Node the workspace brings (the node package)\n${kept.join('\n')}`;
}

/**
 * Whether an `npm error Missing:` line names a platform build of another system: one npm could not resolve
 * at all ("name@ from lock file"), or one a locked package lists among its optionalDependencies
 * ("name@1.2.3 from lock file": @swc/core-darwin-arm64 and the like). Anything else is a real mismatch.
 * @param {string} line @param {string} root
 */
export function isLockedOptional(line, root) {
  const match = MISSING_PACKAGE.exec(line);
  if (!match) return false;
  if (match[2] === '') return true;
  optionalNames ??= lockedOptionalNames(root);
  return optionalNames.has(match[1]);
}

/** @type {Set<string> | undefined} */
let optionalNames;

/** @param {string} root */
function lockedOptionalNames(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const names = new Set();
  for (const entry of Object.values(lock.packages ?? {})) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) names.add(name);
  }
  return names;
}

/** @param {string} root @param {(msg: string) => void} log */
export function installDependencies(root, log = (msg) => console.log(msg)) {
  const npmArgs = ['--no-audit', '--no-fund'];
  const ci = spawnSync('npm', ['ci', ...npmArgs], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  if (ci.error) throw new Error(`npm could not start: ${ci.error.message}`);
  if (ci.status === 0) {
    process.stderr.write(withoutEngineWarnings(ci.stderr));
    return;
  }

  // npm's own list of the packages it refused is shown only when the fallback below does not apply or fails:
  // for the expected case a newcomer sees one line that says why, not thirty `npm error Missing:` lines.
  const problems = ci.stderr.match(PROBLEM_LINE) ?? [];
  const onlyUnresolvableOptional =
    LOCK_OUT_OF_SYNC.test(ci.stderr) && problems.length > 0 && problems.every((line) => isLockedOptional(line, root));
  if (!onlyUnresolvableOptional) {
    process.stderr.write(ci.stderr);
    throw new Error(`npm ci failed (exit code ${ci.status}); its output is above.`);
  }

  log(
    `npm ci: the lock file lists ${problems.length} optional packages built for other systems that this registry does not have ` +
      '(expected, harmless): installing the same lock file with npm install instead',
  );
  const files = ['package.json', 'package-lock.json'].map((f) => join(root, f));
  const before = files.map((f) => readFileSync(f, 'utf8'));
  const install = spawnSync('npm', ['install', ...npmArgs], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  process.stderr.write(withoutEngineWarnings(install.stderr ?? ''));
  if (install.status !== 0) {
    process.stderr.write(`npm ci had refused the lock file with:\n${ci.stderr}`);
    throw new Error(`npm install failed (exit code ${install.status ?? install.signal}); its output and npm ci's are above.`);
  }
  const changed = files.filter((f, i) => readFileSync(f, 'utf8') !== before[i]);
  if (changed.length > 0) {
    throw new Error(
      `npm install changed ${changed.map((f) => f.slice(root.length)).join(', ')}: the lock file is out of date; commit the updated one.`,
    );
  }
  log('installed exactly what package-lock.json lists');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    installDependencies(root);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
