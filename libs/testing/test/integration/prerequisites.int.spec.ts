// What a fresh machine meets first: `npm test` checks (and where it can, provides) what it needs before
// anything slow runs (deploy/launcher/prerequisites.mjs, shared with `npm start`), and the first install
// (deploy/launcher/install-deps.mjs) says in one line why it falls back from `npm ci` to `npm install`.
//
// scripts/test.mjs runs here on a copy of itself whose first step, the type-check, is a stand-in that only
// says it ran and fails (the unit specs beside it, a stand-in too, pass), so a passing prerequisites step
// costs nothing; missing programs are simulated with a PATH of the test's own
// (which also hides apt-get, so nothing is installed on this machine).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testInfra } from '../../src/infra.js';
import { freePorts } from '../../src/ports.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const at = (...parts: string[]) => join(ROOT, ...parts);
/** The scripts `npm test` runs from scripts/ (the runner, its report and the linters' list), copied into each fixture. */
const TEST_SCRIPTS = ['test.mjs', 'test-report.mjs', 'lint.mjs'];

const freePort = async (): Promise<number> => (await freePorts(1))[0]!;

/** The real program's path, resolved through symlinks; a machine without it fails this test loudly. */
function realProgram(name: string): string {
  for (const dir of [...(process.env['PATH'] ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'].filter(Boolean)) {
    try {
      return realpathSync(join(dir, name));
    } catch {
      // not in this folder
    }
  }
  throw new Error(`${name} is not on this machine: run the prerequisites step (node deploy/launcher/prerequisites.mjs test) first`);
}

describe('npm test (scripts/test.mjs): prerequisites before anything runs', () => {
  const { postgresUrl, natsUrl, redisUrl } = testInfra();
  let fixture: string;
  let emptyPath: string;
  let toolsPath: string;
  const startedRedisPorts: number[] = [];

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), 'clipit-prereq-'));
    mkdirSync(join(fixture, 'scripts'));
    // scripts/test.mjs, the timing report it ends with and the lint steps it takes from scripts/lint.mjs.
    for (const f of TEST_SCRIPTS) copyFileSync(at('scripts', f), join(fixture, 'scripts', f));
    mkdirSync(join(fixture, 'deploy/launcher'), { recursive: true });
    for (const f of readdirSync(at('deploy/launcher')).filter((n) => n.endsWith('.mjs')))
      copyFileSync(at('deploy/launcher', f), join(fixture, 'deploy/launcher', f));
    // The server clients the checks use are the real ones; the first phase's steps are stand-ins.
    mkdirSync(join(fixture, 'node_modules/typescript-native/bin'), { recursive: true });
    mkdirSync(join(fixture, 'node_modules/jest/bin'), { recursive: true });
    for (const pkg of ['pg', 'ioredis', '@nats-io']) symlinkSync(at('node_modules', pkg), join(fixture, 'node_modules', pkg), 'dir');
    writeFileSync(join(fixture, 'node_modules/typescript-native/bin/tsc'), "console.log('stand-in type-check ran');\nprocess.exit(7);\n");
    writeFileSync(join(fixture, 'node_modules/jest/bin/jest.js'), "console.log('stand-in jest ran');\n");

    emptyPath = join(fixture, 'empty-bin');
    mkdirSync(emptyPath);
    // Every program the tests run, and redis-server to start one; no apt-get, so nothing gets installed.
    toolsPath = join(fixture, 'tools-bin');
    mkdirSync(toolsPath);
    for (const name of ['docker-compose', 'kubectl', 'ffmpeg', 'ffprobe', 'redis-server'])
      symlinkSync(realProgram(name), join(toolsPath, name));
  });

  afterAll(async () => {
    // The Redis servers the launcher code started: SHUTDOWN over a plain socket, which the server closes.
    for (const port of startedRedisPorts) {
      await new Promise<void>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => socket.end('SHUTDOWN NOSAVE\r\n'));
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
      });
    }
    rmSync(fixture, { recursive: true, force: true });
  });

  // The copies of scripts/test.mjs keep no reports where a KEEP_REPORTS of the run around this test says.
  const parentEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'KEEP_REPORTS'));
  const runTests = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(fixture, 'scripts/test.mjs')], {
      cwd: fixture,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...parentEnv, NO_COLOR: '1', TEST_POSTGRES_URL: postgresUrl, TEST_NATS_URL: natsUrl, TEST_REDIS_URL: redisUrl, ...env },
    });

  it('on a fresh clone installs the npm dependencies first (install-deps), then checks the prerequisites', () => {
    // A clone without node_modules, and a stand-in npm whose `ci` lays down what the next steps use.
    const clone = join(fixture, 'fresh-clone');
    mkdirSync(join(clone, 'scripts'), { recursive: true });
    mkdirSync(join(clone, 'deploy'), { recursive: true });
    for (const f of TEST_SCRIPTS) copyFileSync(at('scripts', f), join(clone, 'scripts', f));
    symlinkSync(join(fixture, 'deploy/launcher'), join(clone, 'deploy/launcher'), 'dir');
    writeFileSync(join(clone, 'package.json'), '{}\n');
    writeFileSync(join(clone, 'package-lock.json'), '{}\n');
    const npmPath = join(fixture, 'npm-bin');
    mkdirSync(npmPath, { recursive: true });
    writeFileSync(
      join(npmPath, 'npm'),
      `#!/bin/sh\n[ "$1" = ci ] || exit 2\n/bin/ln -s '${join(fixture, 'node_modules')}' node_modules\necho 'stand-in npm ci ran'\n`,
    );
    chmodSync(join(npmPath, 'npm'), 0o755);
    for (const name of readdirSync(toolsPath)) symlinkSync(realpathSync(join(toolsPath, name)), join(npmPath, name));
    const result = spawnSync(process.execPath, [join(clone, 'scripts/test.mjs')], {
      cwd: clone,
      encoding: 'utf8',
      timeout: 90_000,
      env: {
        ...parentEnv,
        NO_COLOR: '1',
        PATH: npmPath,
        TEST_POSTGRES_URL: postgresUrl,
        TEST_NATS_URL: natsUrl,
        TEST_REDIS_URL: redisUrl,
      },
    });
    const out = result.stdout;
    expect(out).toContain('node_modules is missing: installing the npm dependencies');
    expect(out.indexOf('stand-in npm ci ran')).toBeGreaterThan(-1);
    expect(out.indexOf('stand-in npm ci ran')).toBeLessThan(out.indexOf('▶ prerequisites'));
    expect(out.indexOf('▶ prerequisites')).toBeLessThan(out.indexOf('stand-in type-check ran'));
    expect(result.status).toBe(7);
  });

  it('names each missing program with the command that provides it, and runs nothing', () => {
    const result = runTests({ PATH: emptyPath });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('These programs are needed and were not found:');
    expect(result.stderr).toContain('docker-compose: install it with apt-get install -y docker-compose');
    expect(result.stderr).toContain('ffmpeg: install it with apt-get install -y ffmpeg');
    expect(result.stderr).toContain('ffprobe: install it with apt-get install -y ffmpeg');
    expect(result.stderr).toMatch(/kubectl \(or kustomize\): install kubectl 1\.21 or newer .* or a standalone kustomize 4\+ on PATH/);
    expect(result.stderr).toContain('Nothing was run.');
    expect(result.stdout).not.toContain('▶ type-check');
    expect(result.stdout).not.toContain('stand-in type-check ran');
  });

  it('as root on Debian, runs apt-get update once and one apt-get install of every missing package, then names what is still missing', () => {
    // A stand-in apt-get that only records its arguments: the programs stay missing afterwards.
    const aptPath = join(fixture, 'apt-bin');
    const aptLog = join(fixture, 'apt.log');
    mkdirSync(aptPath, { recursive: true });
    writeFileSync(join(aptPath, 'apt-get'), `#!/bin/sh\necho "$*" >> '${aptLog}'\nexit 0\n`);
    chmodSync(join(aptPath, 'apt-get'), 0o755);
    const result = runTests({ PATH: aptPath });
    const asRootOnDebian = process.getuid?.() === 0 && existsSync('/etc/debian_version');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('docker-compose: install it with apt-get install -y docker-compose');
    expect(result.stdout).not.toContain('stand-in type-check ran');
    if (asRootOnDebian) {
      expect(readFileSync(aptLog, 'utf8').trim().split('\n')).toEqual([
        'update -q',
        'install -y -q --no-install-recommends docker-compose ffmpeg',
      ]);
    } else {
      expect(existsSync(aptLog)).toBe(false);
      expect(result.stderr).toContain('(run as root on Debian and the missing Debian packages are installed for you)');
    }
  });

  it('starts a local server that does not answer, then goes on to the first step', async () => {
    const port = await freePort();
    startedRedisPorts.push(port);
    const result = runTests({ PATH: toolsPath, TEST_REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(result.stdout).toContain(`Redis at redis://127.0.0.1:${port}: down`);
    expect(result.stdout).toContain('starting Redis');
    expect(result.stdout).toContain(`Redis at redis://127.0.0.1:${port}: ok`);
    expect(result.stdout.indexOf('starting Redis')).toBeLessThan(result.stdout.indexOf('stand-in type-check ran'));
    // The stand-in type-check's exit code: everything before it passed.
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 7,
      stderr: expect.stringContaining('type-check failed (exit 7)'),
    });
  });

  it('names a remote server that does not answer, never trying to start it, and runs nothing', () => {
    // 192.0.2.0/24 is reserved for documentation: nothing answers there.
    const result = runTests({ PATH: toolsPath, TEST_REDIS_URL: 'redis://192.0.2.1:6379' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('These servers are needed and do not answer:');
    expect(result.stderr).toContain('Redis at redis://192.0.2.1:6379');
    expect(result.stderr).toContain('or point TEST_REDIS_URL at a server that runs');
    expect(result.stdout).not.toContain('starting Redis');
    expect(result.stdout).not.toContain('stand-in type-check ran');
  });
});

// ---------------------------------------------------------------------------------------------------------
// deploy/launcher/install-deps.mjs with a stand-in npm: `npm ci` refuses the lock file as it does for
// optional packages built for other systems that the registry lacks.
// ---------------------------------------------------------------------------------------------------------
const FAKE_NPM = `#!/bin/sh
case "$1" in
  ci)
    i=0
    while [ $i -lt 30 ]; do
      if [ "$FAKE_NPM_CI" = other ] && [ $i -eq 0 ]; then echo "npm error Invalid: lock file's left-pad@1.0.0 does not satisfy left-pad@2.0.0" >&2; fi
      if [ "$FAKE_NPM_CI" = unlisted ] && [ $i -eq 0 ]; then echo "npm error Missing: left-pad@2.0.0 from lock file" >&2; fi
      if [ "$FAKE_NPM_CI" = versioned ] || [ "$FAKE_NPM_CI" = unlisted ]; then
        echo "npm error Missing: @swc/core-other-system-$i@1.2.3 from lock file" >&2
      else
        echo "npm error Missing: @swc/core-other-system-$i@ from lock file" >&2
      fi
      i=$((i + 1))
    done
    echo "npm error \\\`npm ci\\\` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with \\\`npm install\\\` before continuing." >&2
    exit 1 ;;
  install)
    if [ "$FAKE_NPM_INSTALL" = fail ]; then echo "npm error install broke" >&2; exit 1; fi
    if [ "$FAKE_NPM_INSTALL" = old-node ]; then
      for p in clipit cookie react-router; do
        printf 'npm warn EBADENGINE Unsupported engine {\nnpm warn EBADENGINE   package: %s,\nnpm warn EBADENGINE }\n' "$p" >&2
      done
    fi
    echo "added 1 package"
    exit 0 ;;
esac
exit 2
`;

describe('deploy/launcher/install-deps.mjs on a first install', () => {
  let fixture: string;

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), 'clipit-install-'));
    mkdirSync(join(fixture, 'deploy/launcher'), { recursive: true });
    copyFileSync(at('deploy/launcher/install-deps.mjs'), join(fixture, 'deploy/launcher/install-deps.mjs'));
    writeFileSync(join(fixture, 'package.json'), '{ "name": "install-fixture", "private": true }\n');
    // @swc/core lists its builds for other systems as optional, as the real lock file does.
    const optional = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`@swc/core-other-system-${i}`, '1.2.3']));
    const lock = {
      name: 'install-fixture',
      lockfileVersion: 3,
      packages: { 'node_modules/@swc/core': { version: '1.2.3', optionalDependencies: optional } },
    };
    writeFileSync(join(fixture, 'package-lock.json'), `${JSON.stringify(lock)}\n`);
    mkdirSync(join(fixture, 'bin'));
    writeFileSync(join(fixture, 'bin/npm'), FAKE_NPM);
    chmodSync(join(fixture, 'bin/npm'), 0o755);
  });

  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  const install = (env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(fixture, 'deploy/launcher/install-deps.mjs')], {
      cwd: fixture,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, PATH: `${join(fixture, 'bin')}:/usr/bin:/bin`, ...env },
    });

  it("says in one line why it installs with npm install, instead of npm's thirty Missing lines", () => {
    const result = install();
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => l.includes('npm error'))).toEqual([]);
    expect(lines.filter((l) => /npm ci: the lock file lists 30 optional packages built for other systems/.test(l))).toHaveLength(1);
    expect(lines).toContain('installed exactly what package-lock.json lists');
  });

  it("also when npm names the other systems' builds with the version it wanted, since the lock lists them as optional", () => {
    const result = install({ FAKE_NPM_CI: 'versioned' });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(/npm ci: the lock file lists 30 optional packages built for other systems/);
  });

  it('refuses a versioned Missing package that no locked package lists as optional', () => {
    const result = install({ FAKE_NPM_CI: 'unlisted' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npm error Missing: left-pad@2.0.0 from lock file');
    expect(result.stderr).toContain('npm ci failed (exit code 1)');
    expect(result.stdout).not.toContain('installing the same lock file');
  });

  it("says once that the machine's Node is older than packages ask, instead of npm's engine warnings", () => {
    const result = install({ FAKE_NPM_INSTALL: 'old-node' });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('EBADENGINE');
    expect(result.stderr.split('\n').filter((l) => /is older than some packages ask; that is expected/.test(l))).toHaveLength(1);
  });

  it("shows npm ci's own output when the lock file is refused for another reason", () => {
    const result = install({ FAKE_NPM_CI: 'other' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("npm error Invalid: lock file's left-pad@1.0.0 does not satisfy left-pad@2.0.0");
    expect(result.stderr).toContain('npm error Missing: @swc/core-other-system-0@ from lock file');
    expect(result.stderr).toContain('npm ci failed (exit code 1)');
    expect(result.stdout).not.toContain('installing the same lock file');
  });

  it("shows npm ci's own output when the npm install fallback fails", () => {
    const result = install({ FAKE_NPM_INSTALL: 'fail' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npm error Missing: @swc/core-other-system-29@ from lock file');
    expect(result.stderr).toContain('npm error install broke');
    expect(result.stderr).toContain('npm install failed (exit code 1)');
  });
});
