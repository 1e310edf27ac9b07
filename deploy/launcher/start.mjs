// `npm start`: brings the whole platform up on one machine.
//   1. installs dependencies if node_modules is missing, and moves onto Node 24 (the `node` devDependency)
//   2. reads .env (else the defaults in deploy/.env.example)
//   3. checks PostgreSQL, NATS with JetStream and Redis; starts local ones that do not answer and installs missing
//      ones where it can (root on Debian), otherwise says exactly what is missing (prerequisites.mjs, shared with
//      `npm test`)
//   4. creates each service's database if missing (each service migrates its own schema at boot)
//   4b. checks the programs services run (ffmpeg for the media worker); installs them with apt-get where it can
//   5. builds (tsc -b, incremental; the web apps with rspack, which the gateway serves)
//   6. starts every service in order, waiting for each one's /health/ready, and prints the URL
//   7. supervises them (supervisor.mjs): a service that exits unexpectedly is restarted with backoff (1 s, 2 s,
//      4 s … up to 30 s) and reported "ready again"; if one keeps crashing (5 times within 2 minutes) the launcher
//      names it, shows its last output, stops the rest and exits non-zero. Ctrl-C / SIGTERM stops them all.
// `npm start -- --check` does steps 1 to 4 only (servers and databases ready) and exits.
// On a platform with no streamer yet it signs up two demo accounts through the API (`--no-seed` skips it).
// Plain Node ESM that runs before `npm ci` has: pg, ioredis and the NATS client are imported only after it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.mjs';
import { installDependencies } from './install-deps.mjs';
import { ensurePrograms, ensureServers, PrerequisiteError, programPath, servers as serverList } from './prerequisites.mjs';
import { seedDemoData } from './seed.mjs';
import { HEALTH_READY_PATH, runtimeEnv, SERVICES } from './services.mjs';
import { Supervisor, SupervisorError } from './supervisor.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REQUIRED_NODE_MAJOR = 24;

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

/** The servers the platform uses, checked, started and installed by the shared prerequisites module. */
async function ensureInfrastructure(config) {
  const list = serverList({
    postgres: postgresServers(config).map((s) => ({ adminUrl: s.adminUrl, configuredBy: `${s.envs.join(', ')} (in .env)` })),
    nats: { url: config.get('NATS_URL'), configuredBy: 'NATS_URL (in .env)' },
    redis: { url: config.get('REDIS_URL'), configuredBy: 'REDIS_URL (in .env)' },
    dataDir: join(ROOT, '.data'),
    log,
  });
  await ensureServers(list, { log, paint });
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
  log(
    `databases present: ${postgresServers(config)
      .flatMap((s) => s.databases)
      .join(', ')}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// 4b. programs the services run (ffmpeg and ffprobe for the media worker)
// ---------------------------------------------------------------------------------------------------------
function ensureTools(config) {
  const programs = SERVICES.flatMap((service) =>
    (service.tools ?? []).map((tool) => {
      const program = config.get(tool.env) ?? '';
      const byName = program !== '' && !program.includes('/');
      return {
        name: `${program || '(empty)'} (${tool.env}, for ${service.name})`,
        // Only programs named by their bare name can be provided by installing the package.
        aptPackage: byName ? tool.aptPackage : undefined,
        problem: () => (program && programPath(program) ? undefined : 'not found'),
        remedy: `install it with apt-get install -y ${tool.aptPackage} (Debian/Ubuntu, as root; elsewhere your package manager), or point ${tool.env} (in .env) at it`,
      };
    }),
  );
  ensurePrograms(programs, { log });
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
let stopping = false;

const supervisor = new Supervisor({
  log,
  warn: (msg) => warn(paint(31, msg)),
  onLine: (name, line, stream) => {
    const index = SERVICES.findIndex((s) => s.name === name);
    (stream === 'stdout' ? process.stdout : process.stderr).write(`${label(name, PALETTE[index % PALETTE.length])} ${line}\n`);
  },
  onGiveUp: () => void shutdown(1),
});

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
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new LaunchError(`${name} must be a port number (it is "${value ?? ''}").`);
  return port;
}

function probeHost(config, service) {
  const host = service.httpHostEnv ? config.get(service.httpHostEnv) : undefined;
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function startService(service, childEnv, url) {
  const main = join(ROOT, 'services', service.name, 'dist/main.js');
  if (!existsSync(main)) {
    throw new LaunchError(
      `services/${service.name}/dist/main.js does not exist: the build produced nothing for ${service.name} (is there a services/${service.name}/src/main.ts?).`,
    );
  }
  const env = runtimeEnv(service, childEnv);
  return supervisor.start(service.name, () => spawn(process.execPath, [main], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }), url);
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
  const unsetOf = (service) => (service.requiresEnv ?? []).filter((name) => !childEnv[name]?.trim());
  // Admin samples the readiness of what runs here, at the ports this launch uses (ADR 0039); a service left
  // off is not listed, so it does not show as down. A value set in .env or the environment wins.
  if (!childEnv['ADMIN_HEALTH_TARGETS']?.trim()) {
    childEnv['ADMIN_HEALTH_TARGETS'] = SERVICES.filter((s) => unsetOf(s).length === 0)
      .map((s) => `${s.name}=http://${probeHost(config, s)}:${numberFrom(config, s.httpPortEnv)}`)
      .join(',');
  }
  for (const service of SERVICES) {
    // A service that cannot run without a credential nobody gave it stays off; the rest of the platform runs.
    const unset = unsetOf(service);
    if (unset.length > 0) {
      warn(paint(33, `not starting ${service.name}: ${unset.join(', ')} not set (in .env or the environment); see deploy/.env.example`));
      continue;
    }
    const httpPort = numberFrom(config, service.httpPortEnv);
    const url = `http://${probeHost(config, service)}:${httpPort}${HEALTH_READY_PATH}`;
    log(`starting ${service.name} (waiting for ${url})`);
    const t0 = Date.now();
    await supervisor.waitReady(startService(service, childEnv, url));
    log(`${service.name} is ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// 7. stopping
// ---------------------------------------------------------------------------------------------------------
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await supervisor.stop();
  process.exit(code);
}

function onSignal(signal) {
  if (stopping) {
    // A second Ctrl-C does not wait for the grace period.
    supervisor.kill();
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
  log(
    config.dotenv
      ? 'configuration: environment, then .env, then deploy/.env.example defaults'
      : 'configuration: environment, then deploy/.env.example defaults (no .env)',
  );
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
  supervisor.supervise();
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
  log(adminLine(config, url));
  log(mailLine(config));
}

/**
 * Where identity's mail goes (ADR 0031): with the development outbox, the folder to open a verification or
 * password reset link from (each message is in identity's log too); else the relay.
 */
function mailLine(config) {
  if (config.get('MAIL_DRIVER') === 'smtp')
    return `Mail (verification and password reset links): sent through ${config.get('SMTP_HOST')}:${config.get('SMTP_PORT')}`;
  return `Mail (verification and password reset links): not sent; each message is written to ${paint(33, resolve(ROOT, config.get('MAIL_OUTBOX_DIR')))} and logged by identity`;
}

/**
 * Where the admin area is and how to open it. The development password (deploy/.env.example's, which
 * the admin service refuses in production) is printed; one the operator set never is.
 */
function adminLine(config, url) {
  const password = config.get('ADMIN_PASSWORD');
  const shown =
    password === config.defaults['ADMIN_PASSWORD']
      ? `password ${paint(33, password)} (the development default; set ADMIN_PASSWORD for anything shared)`
      : 'with the password ADMIN_PASSWORD sets';
  return `Admin area: ${url}/admin, ${shown}`;
}

main().catch((err) => {
  // Stopping on a signal while starting: the services' exits are expected, not worth a message.
  if (stopping) return;
  if (err instanceof LaunchError || err instanceof PrerequisiteError || err instanceof SupervisorError) warn(paint(31, err.message));
  else warn(paint(31, `unexpected error: ${err?.stack ?? err}`));
  if (supervisor.entries.length > 0) void shutdown(1);
  else process.exit(1);
});
