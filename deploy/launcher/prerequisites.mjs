// What the platform needs from the machine, checked one way for `npm start`, `npm test` and CI:
// PostgreSQL, NATS with JetStream and Redis answering at their URLs, and the programs run by the services
// and the tests. A local server that does not answer is started; a missing Debian package is installed with
// apt-get (root on Debian: `apt-get update` once, then `apt-get install -y` of everything missing at once);
// anything else stops at once with a message naming what is missing and the command that provides it.
// Nothing is skipped silently.
//
// `node deploy/launcher/prerequisites.mjs test` runs the checks of `npm test` alone (scripts/test.mjs runs
// them first, before anything slow). Plain Node ESM; the server clients (pg, ioredis, the NATS client) are
// imported only when a server is checked, so the programs part runs before `npm ci` has.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const INFRA_START_TIMEOUT_MS = 30_000;
export const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);
/** Where the browser tests (libs/testing/jest/browser-global-setup.mjs) and Playwright find Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A prerequisite that is missing and could not be provided; the message says what and how to get it. */
export class PrerequisiteError extends Error {}

const errorText = (err) => (err instanceof AggregateError ? err.errors.map((e) => e.message).join('; ') : err.message) || String(err);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const redact = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
const hostOf = (url) => new URL(url).hostname;
const portOf = (url, fallback) => Number(new URL(url).port || fallback);

// ---------------------------------------------------------------------------------------------------------
// programs and packages
// ---------------------------------------------------------------------------------------------------------
/** The path of a program on PATH (or in the sbin folders, which a non-login root shell may lack). */
export function findBinary(name) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return dirs
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
}

/** A program given by a bare name (looked up on PATH) or by a path. */
export function programPath(value) {
  return value.includes('/') ? (existsSync(value) ? value : undefined) : findBinary(value);
}

/** Root on Debian with apt-get on PATH: missing packages can be installed here. */
export const canManageMachine = () =>
  process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/etc/debian_version') && Boolean(findBinary('apt-get'));

let aptListsRefreshed = false;

/** `apt-get update` (once per process), then `apt-get install -y` of every package given. */
export function aptInstall(packages, log = console.log) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = findBinary('apt-get') ?? 'apt-get';
  if (!aptListsRefreshed) {
    log('apt-get update (the package lists)');
    spawnSync(apt, ['update', '-q'], { stdio: ['ignore', 'inherit', 'inherit'], env });
    aptListsRefreshed = true;
  }
  log(`installing ${packages.join(', ')} with apt-get`);
  const result = spawnSync(apt, ['install', '-y', '-q', '--no-install-recommends', ...packages], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  if (result.status !== 0) throw new PrerequisiteError(`apt-get install -y ${packages.join(' ')} failed (see above).`);
}

const INSTALL_ELSEWHERE = '(Debian/Ubuntu, as root; elsewhere your package manager)';

/**
 * @typedef {object} Program
 * @property {string} name         what the message calls it
 * @property {() => string|undefined} problem  undefined when present and usable, else what is wrong
 * @property {string} [aptPackage] the Debian package that provides it, when one does
 * @property {string} remedy       the command (or step) that provides it, shown when it stays missing
 */

/** Installs the missing programs that a Debian package provides (where it can), then names what is still missing. */
export function ensurePrograms(programs, { log = console.log, manage = canManageMachine(), install = manage } = {}) {
  let missing = programs.map((p) => ({ p, problem: p.problem() })).filter((m) => m.problem);
  const packages = [...new Set(missing.map((m) => m.p.aptPackage).filter(Boolean))];
  if (missing.length > 0) log(`missing: ${missing.map((m) => m.p.name).join(', ')}`);
  if (install && packages.length > 0) {
    aptInstall(packages, log);
    missing = missing.map((m) => ({ p: m.p, problem: m.p.problem() })).filter((m) => m.problem);
  }
  if (missing.length === 0) return;
  const lines = ['These programs are needed and were not found:'];
  for (const { p, problem } of missing) lines.push(`  - ${p.name}: ${p.remedy}\n      (${problem})`);
  if (!manage && packages.length > 0) lines.push('  (run as root on Debian and the missing Debian packages are installed for you)');
  throw new PrerequisiteError(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------
// servers: PostgreSQL, NATS (JetStream), Redis
// ---------------------------------------------------------------------------------------------------------
export async function checkPostgres(adminUrl) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return errorText(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function checkNats(url) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  let nc;
  try {
    nc = await connect({ servers: url, timeout: 3000 });
  } catch (err) {
    return errorText(err);
  }
  try {
    const jsm = await jetstreamManager(nc, { timeout: 3000 });
    await jsm.getAccountInfo();
    return undefined;
  } catch (err) {
    return `answers, but JetStream does not (nats-server must run with -js): ${errorText(err)}`;
  } finally {
    await nc.close().catch(() => undefined);
  }
}

export async function checkRedis(url) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000, retryStrategy: () => null });
  // The socket error says more ("connect ECONNREFUSED ...") than the rejection ("Connection is closed.").
  let socketError;
  redis.on('error', (err) => (socketError ??= err));
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (err) {
    return errorText(socketError ?? err);
  } finally {
    redis.disconnect();
  }
}

export function postgresVersions() {
  try {
    return readdirSync('/etc/postgresql').sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** Local clusters answer on 127.0.0.1 without a password, as on the project's machines (tests and launcher connect so). */
export function trustLocalPostgresConnections(log = console.log) {
  for (const version of postgresVersions()) {
    const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
    if (!existsSync(hba)) continue;
    const text = readFileSync(hba, 'utf8');
    if (/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+trust/m.test(text)) continue;
    writeFileSync(
      hba,
      `# added by the CLIP IT launcher: local development trusts loopback connections\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n${text}`,
    );
    log(`${hba}: loopback connections trusted (local development)`);
    spawnSync(findBinary('pg_ctlcluster'), ['--skip-systemctl-redirect', version, 'main', 'reload'], { stdio: 'ignore' });
  }
}

/**
 * Each server: how to tell it answers, start it, and install it.
 * @param {{ postgres: {adminUrl: string, configuredBy: string}[], nats: {url: string, configuredBy: string},
 *   redis: {url: string, configuredBy: string}, dataDir: string, log?: (msg: string) => void }} where
 */
export function servers({ postgres, nats, redis, dataDir, log = console.log }) {
  const list = postgres.map((server) => ({
    name: 'PostgreSQL',
    url: server.adminUrl,
    local: LOCAL_HOSTS.has(hostOf(server.adminUrl)),
    check: () => checkPostgres(server.adminUrl),
    binary: 'pg_ctlcluster',
    aptPackage: 'postgresql',
    configuredBy: server.configuredBy,
    startHint: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    start: () => {
      const [version] = postgresVersions();
      if (!version)
        throw new PrerequisiteError(
          'PostgreSQL is installed but /etc/postgresql holds no cluster (create one: pg_createcluster <version> main).',
        );
      if (canManageMachine()) trustLocalPostgresConnections(log);
      // Exit code 2 means "already running"; anything else is reported by the re-check that follows.
      spawnSync(findBinary('pg_ctlcluster'), ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
    },
  }));
  list.push({
    name: 'NATS (JetStream)',
    url: nats.url,
    local: LOCAL_HOSTS.has(hostOf(nats.url)),
    check: () => checkNats(nats.url),
    binary: 'nats-server',
    aptPackage: 'nats-server',
    configuredBy: nats.configuredBy,
    startHint: `nats-server -js -a 127.0.0.1 -p ${portOf(nats.url, 4222)} -sd .data/nats`,
    start: () => {
      const port = portOf(nats.url, 4222);
      const store = join(dataDir, port === 4222 ? 'nats' : `nats-${port}`);
      mkdirSync(store, { recursive: true });
      const logFile = `${store}.log`;
      const out = openSync(logFile, 'a');
      spawn(findBinary('nats-server'), ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], {
        detached: true,
        stdio: ['ignore', out, out],
      }).unref();
      log(`nats-server started in the background (log: ${logFile}, store: ${store})`);
    },
  });
  list.push({
    name: 'Redis',
    url: redis.url,
    local: LOCAL_HOSTS.has(hostOf(redis.url)),
    check: () => checkRedis(redis.url),
    binary: 'redis-server',
    aptPackage: 'redis-server',
    configuredBy: redis.configuredBy,
    startHint: `redis-server --daemonize yes --bind 127.0.0.1 --port ${portOf(redis.url, 6379)} --save "" --appendonly no`,
    start: () => {
      const args = [
        '--daemonize',
        'yes',
        '--bind',
        '127.0.0.1',
        '--port',
        String(portOf(redis.url, 6379)),
        '--save',
        '',
        '--appendonly',
        'no',
      ];
      spawnSync(findBinary('redis-server'), args, { stdio: 'inherit' });
    },
  });
  return list;
}

async function waitUntilUp(item) {
  const deadline = Date.now() + INFRA_START_TIMEOUT_MS;
  let problem = await item.check();
  while (problem && Date.now() < deadline) {
    await sleep(500);
    problem = await item.check();
  }
  return problem;
}

/**
 * Checks every server; a local one that does not answer is installed (root on Debian) and started; a remote
 * one is only named. Throws a PrerequisiteError naming each server still down and what to do about it.
 */
export async function ensureServers(list, { log = console.log, paint = (_code, text) => text, manage = canManageMachine() } = {}) {
  const results = await Promise.all(list.map(async (item) => ({ item, problem: await item.check() })));
  for (const { item, problem } of results) {
    log(`${item.name} at ${redact(item.url)}: ${problem ? paint(31, `down (${problem})`) : paint(32, 'ok')}`);
  }
  let down = results.filter((r) => r.problem);
  if (down.length === 0) return;

  const local = down.filter((r) => r.item.local);
  const missingPackages = [...new Set(local.filter((r) => !findBinary(r.item.binary)).map((r) => r.item.aptPackage))];
  if (manage && missingPackages.length > 0) {
    aptInstall(missingPackages, log);
    if (missingPackages.includes('postgresql')) trustLocalPostgresConnections(log);
  }
  const startable = local.filter((r) => findBinary(r.item.binary));
  for (const { item } of startable) {
    log(`starting ${item.name}`);
    item.start();
  }
  for (const r of startable) {
    r.problem = await waitUntilUp(r.item);
    if (!r.problem) log(`${r.item.name} at ${redact(r.item.url)}: ${paint(32, 'ok')}`);
  }
  down = down.filter((r) => r.problem);
  if (down.length === 0) return;

  const lines = ['These servers are needed and do not answer:'];
  for (const { item, problem } of down) {
    lines.push(`  - ${item.name} at ${redact(item.url)}: ${problem}`);
    if (item.local) {
      if (findBinary(item.binary)) lines.push(`      start it:   ${item.startHint}`);
      else lines.push(`      install it: apt-get install -y ${item.aptPackage}   ${INSTALL_ELSEWHERE}`);
    }
    lines.push(`      or point ${item.configuredBy} at a server that runs`);
  }
  if (!manage && down.some((r) => r.item.local)) lines.push('  (run as root on Debian and local servers are installed for you)');
  throw new PrerequisiteError(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------
// what `npm test` needs
// ---------------------------------------------------------------------------------------------------------
export const TEST_DEFAULTS = {
  TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:5432',
  TEST_NATS_URL: 'nats://127.0.0.1:4222',
  TEST_REDIS_URL: 'redis://127.0.0.1:6379',
};

const aptProgram = (name, aptPackage, path = name) => ({
  name,
  aptPackage,
  problem: () => (programPath(path) ? undefined : path.includes('/') ? `${path} does not exist` : 'not found on PATH'),
  remedy: `install it with apt-get install -y ${aptPackage} ${INSTALL_ELSEWHERE}`,
});

/** kubectl 1.21+ (its built-in kustomize 4+) or a standalone kustomize 4+: the deploy-config test builds the k8s overlays. */
export function kustomizeProblem() {
  const problems = [];
  if (findBinary('kubectl')) {
    const r = spawnSync(findBinary('kubectl'), ['version', '--client'], { encoding: 'utf8', timeout: 30_000 });
    const v = /Kustomize Version: v(\d+)\./.exec(r.stdout ?? '');
    if (v && Number(v[1]) >= 4) return undefined;
    problems.push(`kubectl's kustomize is too old or absent (${(r.stdout || r.stderr || '').split('\n')[0]?.trim() || 'no version'})`);
  } else problems.push('kubectl not found on PATH');
  if (findBinary('kustomize')) {
    const r = spawnSync(findBinary('kustomize'), ['version'], { encoding: 'utf8', timeout: 30_000 });
    if (/v([4-9]|\d{2,})\./.test(r.stdout ?? '')) return undefined;
    problems.push(`kustomize is older than 4 (${(r.stdout ?? '').trim()})`);
  } else problems.push('no standalone kustomize on PATH');
  return problems.join('; ');
}

/** The programs `npm test` runs, each with the command that provides it. */
export function testPrograms() {
  return [
    aptProgram('docker-compose', 'docker-compose'),
    {
      name: 'kubectl (or kustomize)',
      problem: kustomizeProblem,
      // Debian's kubernetes-client is kubectl 1.20 with kustomize v2, too old for the manifests.
      remedy:
        "install kubectl 1.21 or newer (the `kubectl` package of the Kubernetes or Google Cloud apt repository; Debian's kubernetes-client is too old) " +
        'or a standalone kustomize 4+ on PATH',
    },
    aptProgram('Chromium', 'chromium', CHROMIUM_PATH),
    aptProgram('ffmpeg', 'ffmpeg', process.env.FFMPEG_PATH || 'ffmpeg'),
    aptProgram('ffprobe', 'ffmpeg', process.env.FFPROBE_PATH || 'ffprobe'),
  ];
}

/** Everything `npm test` needs, provided where it can be, before anything slow runs. */
export async function ensureTestPrerequisites({ root = fileURLToPath(new URL('../..', import.meta.url)), log = console.log, paint } = {}) {
  const url = (name) => process.env[name] || TEST_DEFAULTS[name];
  const manage = canManageMachine();
  const programs = testPrograms();
  const list = servers({
    postgres: [{ adminUrl: `${url('TEST_POSTGRES_URL').replace(/\/+$/, '')}/postgres`, configuredBy: 'TEST_POSTGRES_URL' }],
    nats: { url: url('TEST_NATS_URL'), configuredBy: 'TEST_NATS_URL' },
    redis: { url: url('TEST_REDIS_URL'), configuredBy: 'TEST_REDIS_URL' },
    dataDir: join(root, '.data'),
    log,
  });
  // Everything missing goes into one apt-get install: the packages of local servers that do not answer and
  // whose program is not there, and those of the missing programs.
  const viaContainers = await containersWillServe();
  const down = viaContainers ? [] : await Promise.all(list.map(async (item) => ((await item.check()) ? item : undefined)));
  const serverPackages = down.filter((s) => s && s.local && !findBinary(s.binary)).map((s) => s.aptPackage);
  const programPackages = programs.filter((p) => p.aptPackage && p.problem()).map((p) => p.aptPackage);
  if (manage && serverPackages.length + programPackages.length > 0) {
    aptInstall([...new Set([...serverPackages, ...programPackages])], log);
    if (serverPackages.includes('postgresql')) trustLocalPostgresConnections(log);
  }
  ensurePrograms(programs, { log, manage, install: false });
  log(`programs: ${programs.map((p) => p.name).join(', ')}: ok`);
  if (viaContainers) {
    log('no TEST_*_URL given and a container engine answers: the Jest global setup starts PostgreSQL, NATS and Redis in containers');
    return;
  }
  await ensureServers(list, { log, paint, manage });
}

/** As libs/testing/jest/containers.mjs decides: testcontainers serves when no server URL is given and an engine answers. */
async function containersWillServe() {
  if (Object.keys(TEST_DEFAULTS).some((name) => process.env[name]) || process.env.CLIPIT_TEST_CONTAINERS === 'off') return false;
  try {
    const tc = await import('testcontainers');
    await tc.getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const what = process.argv[2];
  if (what !== 'test') {
    console.error('usage: node deploy/launcher/prerequisites.mjs test   (checks and provides what `npm test` needs)');
    process.exit(2);
  }
  try {
    await ensureTestPrerequisites({ log: (msg) => console.log(`[prerequisites] ${msg}`) });
  } catch (err) {
    console.error(err instanceof PrerequisiteError ? err.message : (err?.stack ?? String(err)));
    process.exit(1);
  }
}
