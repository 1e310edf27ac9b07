// Global setup of the fault suite and the soak: the services built once (`tsc -b`, incremental), before any
// test file starts, so that files running side by side never build the same output at once. The fault
// platform runs them as the launcher does: `node services/<name>/dist/main.js`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default function faultsGlobalSetup() {
  execFileSync(process.execPath, ['node_modules/typescript-native/bin/tsc', '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
