// Global setup of the browser tests: what every Jest project with real servers needs (global-setup.mjs),
// then the web apps built for production, only if a build is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import globalSetup from './global-setup.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default async function browserGlobalSetup() {
  await globalSetup();
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error(
      'The browser tests need Chromium at /usr/bin/chromium: apt-get install -y chromium (npm test installs it as root on Debian).',
    );
  }
  const result = spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building the web apps failed (exit ${result.status ?? result.signal}): see above`);
}
