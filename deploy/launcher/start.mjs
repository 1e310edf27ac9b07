// `npm start`: brings the whole platform up on one machine.
//   1. installs dependencies if node_modules is missing, and moves onto Node 24 (the `node` devDependency)
//   2. reads .env (else the defaults in deploy/.env.example)
//   3. checks PostgreSQL, NATS with JetStream and Redis; starts or installs them where it can (root on Debian),
//      otherwise says exactly what is missing
//   4. creates each service's database if missing (each service migrates its own schema at boot)
//   4b. checks the programs services run (ffmpeg for the media worker); installs them with apt-get where it can
//   5. builds (tsc -b, incremental; the web apps with rspack, which the gateway serves)
//   6. starts every service in order, waiting for each one's /health/ready, and prints the URL
//   7. on Ctrl-C / SIGTERM stops them all; if one dies, stops the rest and exits non-zero
// `npm start -- --check` does steps 1 to 4 only (servers and databases ready) and exits.
// On a platform with no streamer yet it signs up two demo accounts through the API (`--no-seed` skips it).
// Plain Node ESM that runs before `npm ci` has: pg, ioredis and the NATS client are imported only after it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.mjs';
import { installDependencies } from './install-deps.mjs';
import { seedDemoData } from './seed.mjs';
import { HEALTH_READY_PATH, SERVICES } from './services.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REQUIRED_NODE_MAJOR = 24;
const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 10_000;
const INFRA_START_TIMEOUT_MS = 30_000;
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

const useColour = process.env.FORCE_COLOR ? process.env.FORCE_COLOR !== '0' : process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (useColour ? `\x1b[${code}m${text}\x1b[0m` : text);
const PALETTE = [36, 35, 33, 32, 34, 91, 96, 95];
const LABEL_WIDTH = Math.max('launcher'.length, ...SERVICES.map((s) => s.name.length)) + 2;
const label = (name, colour) => paint(colour, `[${name}]`.padEnd(LABEL_WIDTH));

const log = (msg) => console.log(`${label('launcher', 1)} ${msg}`);
const warn = (msg) => console.error(`${label('launcher', 33)} ${msg}`);
class LaunchError extends Error {}
const startedAt = Date.now();

// ---------------------------------------------------------------------------------------------------------
// 1. dependencies and Node version
// ---------------------------------------------------------------------------------------------------------
function ensureDependencies() {
  if (existsSync(join(ROOT, 'node_modules'))) return;
  log('node_modules is missing: running npm ci');
  try {
    installDependencies(ROOT, log);
  } catch (err) {
    throw new LaunchError(err.message);
  }
}

/** Re-runs this script under Node 24 from node_modules when started by an older Node. Returns true if it did. */
function reexecOnCurrentNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= REQUIRED_NODE_MAJOR) return false;
  const local = join(ROOT, 'node_modules/.bin/node');
  if (!existsSync(local)) {
    throw new LaunchError(
      `Node ${REQUIRED_NODE_MAJOR} or newer is needed (this is ${process.version}) and node_modules/.bin/node is missing.\n` +
        '  Run `npm ci` (it installs Node 24 as the `node` devDependency) and start again with `npm start`.',
    );
  }
  log(`Node ${process.version} is too old: continuing under Node ${REQUIRED_NODE_MAJOR} from node_modules`);
  const child = spawn(local, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child through the terminal; SIGTERM sent to us alone is passed on.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// 3. PostgreSQL, NATS (JetStream), Redis
// ---------------------------------------------------------------------------------------------------------
const errorText = (err) => (err instanceof AggregateError ? err.errors.map((e) => e.message).join('; ') : err.message) || String(err);

/** The Postgres servers the services use, each with the databases wanted on it. */
function postgresServers(config) {
  const servers = new Map();
  for (const service of SERVICES.filter((s) => s.databaseUrlEnv)) {
    const raw = config.get(service.databaseUrlEnv);
    if (!raw) throw new LaunchError(`${service.databaseUrlEnv} is empty and deploy/.env.example has no default for it.`);
    let url;
    try {
      url = new URL(raw);
    } catch {
      throw new LaunchError(`${service.databaseUrlEnv} is not a URL: ${raw}`);
    }
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (!/^[a-z0-9_]+$/.test(database)) {
      throw new LaunchError(`${service.databaseUrlEnv} names the database "${database}": use lower-case letters, digits and _ only.`);
    }
    const admin = new URL(raw);
    admin.pathname = '/postgres';
    const key = `${admin.host}|${admin.username}`;
    const entry = servers.get(key) ?? { adminUrl: admin.toString(), host: admin.hostname, envs: [], databases: [] };
    entry.envs.push(service.databaseUrlEnv);
    entry.databases.push(database);
    servers.set(key, entry);
  }
  return [...servers.values()];
}

const redact = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function checkPostgres(adminUrl) {
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

async function checkNats(url) {
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

async function checkRedis(url) {
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

const hostOf = (url) => new URL(url).hostname;
const portOf = (url, fallback) => Number(new URL(url).port || fallback);

function findBinary(name) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return dirs.filter(Boolean).map((d) => join(d, name)).find((p) => existsSync(p));
}

function postgresVersions() {
  try {
    return readdirSync('/etc/postgresql').sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** Each local server: how to tell it is there, start it, and install it. */
function infrastructure(config) {
  const natsUrl = config.get('NATS_URL');
  const redisUrl = config.get('REDIS_URL');
  const infra = postgresServers(config).map((server) => ({
    name: 'PostgreSQL',
    url: server.adminUrl,
    local: LOCAL_HOSTS.has(server.host),
    check: () => checkPostgres(server.adminUrl),
    binary: 'pg_ctlcluster',
    aptPackage: 'postgresql',
    configuredBy: server.envs.join(', '),
    startHint: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    start: () => {
      const [version] = postgresVersions();
      if (!version) throw new LaunchError('PostgreSQL is installed but /etc/postgresql holds no cluster (create one: pg_createcluster <version> main).');
      // Exit code 2 means "already running"; anything else is reported by the re-check that follows.
      spawnSync(findBinary('pg_ctlcluster'), ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
    },
  }));
  infra.push({
    name: 'NATS (JetStream)',
    url: natsUrl,
    local: LOCAL_HOSTS.has(hostOf(natsUrl)),
    check: () => checkNats(natsUrl),
    binary: 'nats-server',
    aptPackage: 'nats-server',
    configuredBy: 'NATS_URL',
    startHint: `nats-server -js -a 127.0.0.1 -p ${portOf(natsUrl, 4222)} -sd .data/nats`,
    start: () => {
      const dataDir = join(ROOT, '.data/nats');
      mkdirSync(dataDir, { recursive: true });
      const out = openSync(join(ROOT, '.data/nats.log'), 'a');
      const args = ['-js', '-a', '127.0.0.1', '-p', String(portOf(natsUrl, 4222)), '-sd', dataDir];
      spawn(findBinary('nats-server'), args, { detached: true, stdio: ['ignore', out, out] }).unref();
      log(`nats-server started in the background (log: .data/nats.log, store: .data/nats)`);
    },
  });
  infra.push({
    name: 'Redis',
    url: redisUrl,
    local: LOCAL_HOSTS.has(hostOf(redisUrl)),
    check: () => checkRedis(redisUrl),
    binary: 'redis-server',
    aptPackage: 'redis-server',
    configuredBy: 'REDIS_URL',
    startHint: `redis-server --daemonize yes --bind 127.0.0.1 --port ${portOf(redisUrl, 6379)} --save "" --appendonly no`,
    start: () => {
      const args = ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(portOf(redisUrl, 6379)), '--save', '', '--appendonly', 'no'];
      spawnSync(findBinary('redis-server'), args, { stdio: 'inherit' });
    },
  });
  return infra;
}

const canManageMachine = () =>
  process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/etc/debian_version') && Boolean(findBinary('apt-get'));

async function waitUntilUp(item) {
  const deadline = Date.now() + INFRA_START_TIMEOUT_MS;
  let problem = await item.check();
  while (problem && Date.now() < deadline) {
    await sleep(500);
    problem = await item.check();
  }
  return problem;
}

function aptInstall(packages) {
  log(`installing ${packages.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-q', ...packages], { stdio: 'inherit', env }).status === 0;
  if (install()) return;
  log('apt-get install failed; refreshing the package lists and trying again');
  spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  if (!install()) throw new LaunchError(`apt-get install -y ${packages.join(' ')} failed (see above).`);
}

/** A cluster this launcher has just installed answers on 127.0.0.1 without a password, like the project's machines. */
function trustLocalPostgresConnections() {
  for (const version of postgresVersions()) {
    const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
    if (!existsSync(hba)) continue;
    const text = readFileSync(hba, 'utf8');
    if (/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+trust/m.test(text)) continue;
    writeFileSync(hba, `# added by the CLIP IT launcher: local development trusts loopback connections\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n${text}`);
    log(`${hba}: loopback connections trusted (local development)`);
    spawnSync(findBinary('pg_ctlcluster'), ['--skip-systemctl-redirect', version, 'main', 'reload'], { stdio: 'ignore' });
  }
}

async function ensureInfrastructure(config) {
  const infra = infrastructure(config);
  const results = await Promise.all(infra.map(async (item) => ({ item, problem: await item.check() })));
  for (const { item, problem } of results) {
    log(`${item.name} at ${redact(item.url)}: ${problem ? paint(31, `down (${problem})`) : paint(32, 'ok')}`);
  }
  let down = results.filter((r) => r.problem);
  if (down.length === 0) return;

  const manage = canManageMachine();
  const fixable = down.filter((r) => r.item.local && manage);
  const missingPackages = [...new Set(fixable.filter((r) => !findBinary(r.item.binary)).map((r) => r.item.aptPackage))];
  if (missingPackages.length > 0) {
    aptInstall(missingPackages);
    if (missingPackages.includes('postgresql')) trustLocalPostgresConnections();
  }
  for (const { item } of fixable) {
    if (!findBinary(item.binary)) continue;
    log(`starting ${item.name}`);
    item.start();
  }
  for (const r of fixable) {
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
      else lines.push(`      install it: apt-get install -y ${item.aptPackage}   (Debian/Ubuntu, as root; elsewhere your package manager)`);
    }
    lines.push(`      or point ${item.configuredBy} (in .env) at a server that runs`);
  }
  if (!manage) lines.push('  (run as root on Debian and the launcher installs and starts local servers itself)');
  throw new LaunchError(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------
// 4. databases
// ---------------------------------------------------------------------------------------------------------
async function ensureDatabases(config) {
  const { default: pg } = await import('pg');
  for (const server of postgresServers(config)) {
    const client = new pg.Client({ connectionString: server.adminUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      for (const database of server.databases) {
        const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (rowCount > 0) continue;
        await client.query(`CREATE DATABASE "${database}"`);
        log(`created database ${database}`);
      }
    } finally {
      await client.end();
    }
  }
  log(`databases present: ${postgresServers(config).flatMap((s) => s.databases).join(', ')}`);
}

// ---------------------------------------------------------------------------------------------------------
// 4b. programs the services run (ffmpeg and ffprobe for the media worker)
// ---------------------------------------------------------------------------------------------------------
function programPath(value) {
  return value.includes('/') ? (existsSync(value) ? value : undefined) : findBinary(value);
}

function ensureTools(config) {
  const missing = SERVICES.flatMap((service) =>
    (service.tools ?? []).map((tool) => ({ service: service.name, ...tool, program: config.get(tool.env) ?? '' })).filter((t) => !programPath(t.program)),
  );
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((t) => t.aptPackage))];
  // Only programs named by their bare name can be fixed by installing the package.
  if (canManageMachine() && missing.every((t) => !t.program.includes('/'))) {
    aptInstall(packages);
    if (missing.every((t) => programPath(t.program))) return;
  }
  const lines = ['These programs are needed and were not found:'];
  for (const t of missing) lines.push(`  - ${t.program || '(empty)'} (${t.env}, for ${t.service}): install it with apt-get install -y ${t.aptPackage} (Debian/Ubuntu, as root; elsewhere your package manager), or point ${t.env} (in .env) at it`);
  throw new LaunchError(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------
// 5. build
// ---------------------------------------------------------------------------------------------------------
function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error) throw new LaunchError(`${what} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new LaunchError(`${what} failed (exit code ${result.status ?? result.signal}).`);
}

function build() {
  log('building (npm run build: tsc -b, incremental, then the web apps with rspack for production)');
  const t0 = Date.now();
  // Under `npm start`, npm_execpath is npm's own CLI: run it with this Node rather than whatever npm PATH finds.
  const npmCli = process.env.npm_execpath;
  if (npmCli && npmCli.endsWith('.js')) run(process.execPath, [npmCli, 'run', 'build'], 'npm run build');
  else run('npm', ['run', 'build'], 'npm run build');
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------------------
// 6. services
// ---------------------------------------------------------------------------------------------------------
const children = [];
let stopping = false;
let starting = true;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function portInUse(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

function numberFrom(config, name) {
  const value = config.get(name);
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new LaunchError(`${name} must be a port number (it is "${value ?? ''}").`);
  return port;
}

function probeHost(config, service) {
  const host = service.httpHostEnv ? config.get(service.httpHostEnv) : undefined;
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function pipeLines(stream, prefix, out) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

function startService(service, index, childEnv) {
  const main = join(ROOT, 'services', service.name, 'dist/main.js');
  if (!existsSync(main)) {
    throw new LaunchError(`services/${service.name}/dist/main.js does not exist: the build produced nothing for ${service.name} (is there a services/${service.name}/src/main.ts?).`);
  }
  const prefix = label(service.name, PALETTE[index % PALETTE.length]);
  const child = spawn(process.execPath, [main], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const entry = { service, child, exited: false, exitCode: null };
  children.push(entry);
  pipeLines(child.stdout, prefix, process.stdout);
  pipeLines(child.stderr, prefix, process.stderr);
  child.on('error', (err) => warn(`${service.name}: ${err.message}`));
  child.on('exit', (code, signal) => {
    entry.exited = true;
    entry.exitCode = code ?? signal;
    // While starting, waitReady reports it and the start-up fails as a whole.
    if (stopping || starting) return;
    // A Ctrl-C in the terminal reaches the services too; give our own signal handler a moment to run first.
    setTimeout(() => {
      if (stopping) return;
      warn(paint(31, `${service.name} exited unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}): stopping the others`));
      void shutdown(1);
    }, 250);
  });
  return entry;
}

async function waitReady(entry, url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const dead = children.find((c) => c.exited);
    if (dead) throw new LaunchError(`${dead.service.name} exited (${dead.exitCode}) before the platform was up; its output is above.`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`;
    } catch (err) {
      last = errorText(err.cause ?? err);
    }
    await sleep(300);
  }
  throw new LaunchError(`${entry.service.name} was not ready within ${READY_TIMEOUT_MS / 1000} s at ${url} (last answer: ${last}).`);
}

async function startServices(config) {
  // The services read their own configuration: they get the environment plus .env, not the launcher's defaults.
  const childEnv = { ...(config.dotenv ?? {}), ...process.env };
  // Every port is checked before anything starts: a stale instance would otherwise answer our readiness probe.
  for (const name of SERVICES.flatMap((s) => [s.httpPortEnv, ...(s.portEnvs ?? [])])) {
    const port = numberFrom(config, name);
    if (await portInUse(port)) {
      throw new LaunchError(`port ${port} (${name}) is already in use: is CLIP IT already running? Stop it or set ${name} in .env.`);
    }
  }
  for (const [index, service] of SERVICES.entries()) {
    const httpPort = numberFrom(config, service.httpPortEnv);
    const url = `http://${probeHost(config, service)}:${httpPort}${HEALTH_READY_PATH}`;
    log(`starting ${service.name} (waiting for ${url})`);
    const t0 = Date.now();
    const entry = startService(service, index, childEnv);
    await waitReady(entry, url);
    log(`${service.name} is ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// 7. stopping
// ---------------------------------------------------------------------------------------------------------
function waitExit(entry, ms) {
  if (entry.exited) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    entry.child.once('exit', () => (clearTimeout(timer), resolve(true)));
  });
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const running = children.filter((c) => !c.exited);
  if (running.length > 0) log(`stopping ${running.map((c) => c.service.name).join(', ')}`);
  for (const entry of running) entry.child.kill('SIGTERM');
  await Promise.all(
    running.map(async (entry) => {
      if (await waitExit(entry, STOP_GRACE_MS)) return;
      warn(`${entry.service.name} did not stop within ${STOP_GRACE_MS / 1000} s: killing it`);
      entry.child.kill('SIGKILL');
      await waitExit(entry, 2000);
    }),
  );
  process.exit(code);
}

function onSignal(signal) {
  if (stopping) {
    // A second Ctrl-C does not wait for the grace period.
    for (const entry of children.filter((c) => !c.exited)) entry.child.kill('SIGKILL');
    process.exit(1);
  }
  log(`${signal} received`);
  void shutdown(0);
}

// ---------------------------------------------------------------------------------------------------------
async function main() {
  ensureDependencies();
  if (reexecOnCurrentNode()) return;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const config = loadConfig(ROOT);
  log(config.dotenv ? 'configuration: environment, then .env, then deploy/.env.example defaults' : 'configuration: environment, then deploy/.env.example defaults (no .env)');
  await ensureInfrastructure(config);
  await ensureDatabases(config);
  if (process.argv.includes('--check')) {
    log('--check: servers and databases are ready; not building or starting services');
    return;
  }
  if (stopping) return;
  ensureTools(config);
  build();
  await startServices(config);
  starting = false;
  const publicService = SERVICES.find((s) => s.public);
  const url = `http://localhost:${numberFrom(config, publicService.httpPortEnv)}`;
  if (!process.argv.includes('--no-seed')) {
    try {
      log(await seedDemoData(`http://127.0.0.1:${numberFrom(config, publicService.httpPortEnv)}`));
    } catch (err) {
      warn(`demo data not seeded: ${err.message}`);
    }
  }
  log(paint(32, `CLIP IT is up: ${url}`) + ` (in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; Ctrl-C stops it)`);
}

main().catch((err) => {
  // Stopping on a signal while starting: the services' exits are expected, not worth a message.
  if (stopping) return;
  if (err instanceof LaunchError) warn(paint(31, err.message));
  else warn(paint(31, `unexpected error: ${err?.stack ?? err}`));
  if (children.length > 0) void shutdown(1);
  else process.exit(1);
});
