// The platform's idle memory (ADR 0046): starts it the way `npm start` does (the npm CLI running
// deploy/launcher/start.mjs: build, every service with its runtime settings, the demo seed), on a database per
// service, JetStream stream names, a Redis prefix and folders of its own; puts a load on the gateway (public reads
// and a signed-in read, BENCH_MEMORY_LOAD_SECONDS each, 3 by default); waits BENCH_MEMORY_IDLE_SECONDS (15); then
// prints the memory of every process `npm start` runs (resident: RSS, anonymous, file-backed; proportional: PSS),
// with each service's V8 heap (used, total) and external memory from its /metrics, and the sums: RSS of every
// process, RSS of the services alone, PSS of every process. It exits 1 when the PSS sum is over
// BENCH_MEMORY_LIMIT_MB (1,024), or when anything does not start or answer.
//
// Why PSS is the gate (ADR 0046): every Node process maps the same node binary, about 58 MB of it resident, and
// RSS counts those shared pages once per process, eleven times in all; PSS divides each shared page among the
// processes that map it, so the sum counts it once, as the machine holds it. (A process outside the tree that
// maps the same file, such as this bench's own node, takes its share too: run nothing else from this checkout
// meanwhile.) The RSS sums are printed beside it. BENCH_MEMORY_GATE=rss judges the RSS sum of every process
// instead.
//
//   npm run bench:memory            (part of npm run bench)
//   BENCH_MEMORY_DETAIL=1 npm run bench:memory
//       also loads scripts/bench/memory-probe.mjs into every Node process (NODE_OPTIONS=--import), which counts
//       the modules each loads and, once idle, reports its heap spaces, array buffers and the packages its modules
//       came from, with the size of their source (V8 keeps every module's source in the heap); BENCH_MEMORY_SNAPSHOT=gateway adds the gateway's heap by constructor (a heap snapshot). The probe
//       costs memory itself: the gate is judged on runs without it.
//   BENCH_MEMORY_ENV='MALLOC_ARENA_MAX=8 UV_THREADPOOL_SIZE=4'   extra variables for every process (to compare settings)
//
// Figures from a machine that other work shares are indicative: compare runs taken one after another.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SERVICES } from '../../deploy/launcher/services.mjs';
import { runBench } from './baseline.mjs';
import { isolatedBackend } from './isolation.mjs';
import { log } from './measure.mjs';
import { freePort } from './processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const LOAD_SECONDS = Number(env('BENCH_MEMORY_LOAD_SECONDS', '3'));
const IDLE_SECONDS = Number(env('BENCH_MEMORY_IDLE_SECONDS', '15'));
const LIMIT_MB = Number(env('BENCH_MEMORY_LIMIT_MB', '1024'));
const GATE = env('BENCH_MEMORY_GATE', 'pss');
if (!['pss', 'rss'].includes(GATE)) throw new Error(`BENCH_MEMORY_GATE must be pss or rss, not "${GATE}"`);
const CONNECTIONS = Number(env('BENCH_MEMORY_CONNECTIONS', '20'));
const DETAIL = env('BENCH_MEMORY_DETAIL', '') === '1';
const SNAPSHOT = env('BENCH_MEMORY_SNAPSHOT', '');
const START_TIMEOUT_MS = 15 * 60_000;

/** What a browser sends: compressed answers are what the gateway makes under real traffic. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json, text/html;q=0.9' };
const PUBLIC_READS = [
  '/',
  '/api/feed/clips?limit=10',
  '/api/leaderboard/posts',
  '/api/leaderboard/users',
  '/api/top-streamers',
  '/api/featured-clippers',
  '/api/streamers',
];
const SIGNED_IN_READS = ['/api/user/me', '/api/dashboard', '/api/submissions'];
// The demo clipper `npm start` signs up on an empty platform (deploy/launcher/seed.mjs).
const DEMO_CLIPPER = { twitterHandle: 'demo_clipper', password: 'clipit-demo' };

let backend;
let scratch;
/** The `npm start` process (a process group of its own, so nothing it started outlives the bench). */
let platform;

const mb = (bytes) => bytes / 1024 / 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The variables that put every service on this run's ports, databases, streams, Redis prefix and folders. */
async function isolatedEnv() {
  const vars = { ...backend.env, NO_COLOR: '1', MAIL_OUTBOX_DIR: join(scratch, 'mail'), MEDIA_WORKER_TMP_DIR: join(scratch, 'media') };
  for (const service of SERVICES) {
    for (const name of [service.httpPortEnv, ...(service.portEnvs ?? [])]) vars[name] = String(await freePort());
    if (service.httpHostEnv) vars[service.httpHostEnv] = '127.0.0.1';
    if (service.databaseUrlEnv) vars[service.databaseUrlEnv] = backend.databaseUrls[service.name];
  }
  // Every caller of a service finds it at <P>_GRPC_URL, beside its <P>_GRPC_PORT.
  for (const [name, port] of Object.entries(vars)) {
    if (name.endsWith('_GRPC_PORT')) vars[name.replace(/_PORT$/, '_URL')] = `127.0.0.1:${port}`;
  }
  for (const pair of env('BENCH_MEMORY_ENV', '').split(/\s+/).filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`BENCH_MEMORY_ENV: "${pair}" is not NAME=value`);
    vars[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return vars;
}

/** `npm start`, as a person types it, with the npm this bench runs under when there is one. */
function startPlatform(vars, logPath) {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli?.endsWith('.js') ? [process.execPath, [npmCli, 'start']] : ['npm', ['start']];
  const out = openSync(logPath, 'a');
  try {
    return spawn(command, args, { cwd: root, env: { ...process.env, ...vars }, stdio: ['ignore', out, out], detached: true });
  } finally {
    closeSync(out);
  }
}

/** Waits for the launcher's "CLIP IT is up" line; fails when `npm start` ends first or takes too long. */
async function untilUp(logPath) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const text = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
    if (/CLIP IT is up/.test(text)) return text;
    if (platform.exitCode !== null || platform.signalCode !== null || Date.now() > deadline) {
      const tail = text.trim().split('\n').slice(-30).join('\n');
      throw new Error(
        `npm start ${platform.exitCode !== null ? `exited (${platform.exitCode})` : 'was not up in time'}; its last output:\n${tail}`,
      );
    }
    await sleep(500);
  }
}

// ---------------------------------------------------------------------------------------------------------
// processes, from /proc
// ---------------------------------------------------------------------------------------------------------
function readProc(pid, file) {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every process whose ancestry leads to `rootPid`, with it: pid, command line and memory (kB fields of status). */
function processTree(rootPid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(entry, 'stat');
    if (!stat) continue;
    parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parents.get(p) ?? 0, hops += 1) if (p === rootPid) return true;
    return false;
  };
  return [...parents.keys()].filter(inTree).flatMap((pid) => {
    const status = readProc(pid, 'status');
    const cmdline = readProc(pid, 'cmdline');
    if (!status || cmdline === undefined) return [];
    const kb = (field, text = status) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return [
      {
        pid,
        argv: cmdline.split('\0').filter(Boolean),
        rssKb: kb('VmRSS'),
        anonKb: kb('RssAnon'),
        fileKb: kb('RssFile'),
        // Proportional: pages shared with other processes (the node binary) counted as a share each.
        pssKb: kb('Pss', readProc(pid, 'smaps_rollup') ?? ''),
        threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      },
    ];
  });
}

/** What a process of the tree is: a service by its dist/main.js, the launcher, npm, or its command. */
function roleOf(proc) {
  const main = proc.argv.find((a) => /services\/[^/]+\/dist\/main\.js$/.test(a));
  if (main) return /services\/([^/]+)\/dist/.exec(main)[1];
  // npm names its process after its command ("npm start"); it runs the script through a shell.
  if (/(^|\/)npm( |$)|npm-cli\.js$/.test(proc.argv[0] ?? '') || proc.argv.some((a) => a.endsWith('/npm-cli.js'))) return 'npm';
  if (/(^|\/)(ba|da)?sh$/.test(proc.argv[0] ?? '')) return 'sh';
  if (proc.argv.some((a) => a.endsWith('deploy/launcher/start.mjs'))) return 'launcher';
  return proc.argv.slice(0, 2).join(' ') || `pid ${proc.pid}`;
}

// ---------------------------------------------------------------------------------------------------------
// the services' own readings (/metrics)
// ---------------------------------------------------------------------------------------------------------
async function heapOf(vars, service) {
  const port = vars[service.httpPortEnv];
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
    return {
      heapUsed: value('nodejs_heap_size_used_bytes'),
      heapTotal: value('nodejs_heap_size_total_bytes'),
      external: value('nodejs_external_memory_bytes'),
    };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// load
// ---------------------------------------------------------------------------------------------------------
async function signIn(gatewayUrl) {
  const res = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: gatewayUrl },
    body: JSON.stringify(DEMO_CLIPPER),
  });
  const cookie = /clipit\.sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  const body = await res.text();
  if (res.status !== 200 || !cookie)
    throw new Error(`signing in as the demo clipper answered ${res.status} with no session cookie: ${body}`);
  return cookie;
}

async function load(gatewayUrl, cookie) {
  const runs = [
    ...PUBLIC_READS.map((path) => ({ path, headers: BROWSER })),
    ...SIGNED_IN_READS.map((path) => ({ path, headers: { ...BROWSER, cookie } })),
  ];
  log(`load: ${runs.length} reads, ${LOAD_SECONDS} s each at ${CONNECTIONS} connections (public, then signed in as the demo clipper)`);
  for (const { path, headers } of runs) {
    const result = await autocannon({ url: `${gatewayUrl}${path}`, headers, connections: CONNECTIONS, duration: LOAD_SECONDS });
    const bad = result.non2xx + result.errors + result.timeouts;
    log(
      `  ${path.padEnd(28)} ${result.requests.average.toFixed(0).padStart(6)} req/s, p99 ${String(result.latency.p99).padStart(4)} ms, ${result.requests.total} requests, ${bad} not 2xx/errors`,
    );
    if (bad > 0) {
      const codes = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => `${count} × ${code}`);
      throw new Error(
        `${path}: ${bad} answers were not 2xx or failed (${codes.join(', ')}; ${result.errors} errors, ${result.timeouts} timeouts)`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// the table
// ---------------------------------------------------------------------------------------------------------
const fmt = (value, width = 8) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(0)).padStart(width);

async function report(vars) {
  const procs = processTree(platform.pid).map((p) => ({ ...p, role: roleOf(p) }));
  const order = (role) => {
    const i = ['npm', 'sh', 'launcher', ...SERVICES.map((s) => s.name)].indexOf(role);
    return i < 0 ? 99 : i;
  };
  procs.sort((a, b) => order(a.role) - order(b.role) || a.pid - b.pid);
  const heaps = new Map();
  for (const service of SERVICES) heaps.set(service.name, await heapOf(vars, service));
  log(`\nidle for ${IDLE_SECONDS} s after the load:`);
  log(
    `${'process'.padEnd(16)} ${'pid'.padStart(8)} ${'RSS MB'.padStart(8)} ${'anon'.padStart(8)} ${'file'.padStart(8)} ${'PSS'.padStart(8)} ${'threads'.padStart(8)} ${'heap used'.padStart(10)} ${'heap total'.padStart(10)} ${'external'.padStart(9)}`,
  );
  let total = 0;
  let services = 0;
  let pss = 0;
  for (const p of procs) {
    const heap = heaps.get(p.role);
    total += p.rssKb;
    pss += p.pssKb;
    if (heaps.has(p.role)) services += p.rssKb;
    log(
      `${p.role.slice(0, 16).padEnd(16)} ${String(p.pid).padStart(8)} ${fmt(p.rssKb / 1024)} ${fmt(p.anonKb / 1024)} ${fmt(p.fileKb / 1024)} ${fmt(p.pssKb / 1024)} ${fmt(p.threads)} ${fmt(heap && mb(heap.heapUsed), 10)} ${fmt(heap && mb(heap.heapTotal), 10)} ${fmt(heap && mb(heap.external), 9)}`,
    );
  }
  const given = { ...process.env, ...vars };
  const missing = SERVICES.filter((s) => !procs.some((p) => p.role === s.name) && !s.requiresEnv?.some((name) => !given[name]));
  if (missing.length > 0) throw new Error(`no process found for ${missing.map((s) => s.name).join(', ')}`);
  const limit = (gate) => (GATE === gate ? `; the gate: at most ${LIMIT_MB} MB` : '');
  log(`${'RSS services'.padEnd(16)} ${''.padStart(8)} ${fmt(services / 1024)}   (the services alone)`);
  log(`${'RSS total'.padEnd(16)} ${''.padStart(8)} ${fmt(total / 1024)}   (every process of npm start${limit('rss')})`);
  log(
    `${'PSS total'.padEnd(16)} ${''.padStart(8)} ${fmt(pss / 1024)}   (every process, the node binary's shared pages counted once${limit('pss')})`,
  );
  return { rssMb: total / 1024, pssMb: pss / 1024, procs };
}

// ---------------------------------------------------------------------------------------------------------
// BENCH_MEMORY_DETAIL: what each service's probe (memory-probe.mjs) reports once idle
// ---------------------------------------------------------------------------------------------------------
/** Asks each service's probe for its report (SIGUSR2) and prints them. */
async function probeReports(procs, dir) {
  const services = procs.filter((p) => SERVICES.some((s) => s.name === p.role));
  for (const p of services) process.kill(p.pid, 'SIGUSR2');
  const deadline = Date.now() + 120_000;
  while (services.some((p) => !existsSync(join(dir, `${p.pid}.json`))) && Date.now() < deadline) await sleep(500);
  const reports = services.flatMap((p) =>
    existsSync(join(dir, `${p.pid}.json`)) ? [JSON.parse(readFileSync(join(dir, `${p.pid}.json`), 'utf8'))] : [],
  );
  log(`\nprobe (heap spaces, array buffers, code, modules), MB:`);
  const spaceNames = ['new_space', 'old_space', 'code_space', 'large_object_space', 'trusted_space'];
  log(
    `${'service'.padEnd(14)} ${'heapUsed'.padStart(8)} ${'heapTot'.padStart(8)} ${'extern'.padStart(7)} ${'arrBuf'.padStart(7)} ${'malloc'.padStart(7)} ` +
      `${spaceNames.map((n) => n.replace('_space', '').replace('large_object', 'lo').padStart(7)).join(' ')} ${'code'.padStart(6)} ${'bytec'.padStart(6)} ${'modules'.padStart(7)}`,
  );
  for (const r of reports) {
    const space = (name) => r.spaces.find((s) => s.name === name)?.physical;
    log(
      `${r.service.padEnd(14)} ${fmt(mb(r.memoryUsage.heapUsed))} ${fmt(mb(r.memoryUsage.heapTotal))} ${fmt(mb(r.memoryUsage.external), 7)} ${fmt(mb(r.memoryUsage.arrayBuffers), 7)} ${fmt(mb(r.heap.malloced), 7)} ` +
        `${spaceNames.map((n) => fmt(space(n) === undefined ? undefined : mb(space(n)), 7)).join(' ')} ${fmt(mb(r.code.codeAndMetadata), 6)} ${fmt(mb(r.code.bytecodeAndMetadata), 6)} ${fmt(r.modules, 7)}`,
    );
  }
  log(`\nmodules by package (count, source KB), largest source first:`);
  for (const r of reports)
    log(
      `  ${r.service}: ${r.byPackage
        .slice(0, 20)
        .map(([name, n, bytes]) => `${name} ${n} (${(bytes / 1024).toFixed(0)})`)
        .join(', ')}`,
    );
  for (const r of reports.filter((x) => x.snapshot))
    log(`\n${r.service} heap snapshot, by constructor (self size):\n${snapshotSummary(r.snapshot)}`);
}

/** The largest groups of a heap snapshot by self size: objects by constructor, the rest by kind. */
function snapshotSummary(path) {
  const snap = JSON.parse(readFileSync(path, 'utf8'));
  const {
    node_fields: fields,
    node_types: [types],
  } = snap.snapshot.meta;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]];
    const size = snap.nodes[i + sizeAt];
    const key = type === 'object' || type === 'native' ? `${type} ${snap.strings[snap.nodes[i + nameAt]]}` : `(${type})`;
    const g = groups.get(key) ?? { count: 0, size: 0 };
    g.count += 1;
    g.size += size;
    total += size;
    groups.set(key, g);
  }
  const top = [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, 25);
  return [
    `  total ${mb(total).toFixed(1)} MB`,
    ...top.map(([key, g]) => `  ${mb(g.size).toFixed(2).padStart(7)} MB ${String(g.count).padStart(8)} × ${key.slice(0, 80)}`),
  ].join('\n');
}

async function main() {
  scratch = await mkdtemp(join(tmpdir(), 'clipit-bench-memory-'));
  backend = await isolatedBackend('benchmem', {
    otherDatabases: SERVICES.filter((s) => s.databaseUrlEnv && s.name !== 'identity').map((s) => s.name),
  });
  const vars = await isolatedEnv();
  if (DETAIL) {
    vars.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import ${join(root, 'scripts/bench/memory-probe.mjs')}`.trim();
    vars.MEMORY_PROBE_DIR = join(scratch, 'probe');
    if (SNAPSHOT) vars.MEMORY_PROBE_SNAPSHOT = SNAPSHOT;
  }
  const logPath = join(scratch, 'npm-start.log');
  log(`starting the platform with npm start (its output: ${logPath}) ...`);
  const t0 = Date.now();
  platform = startPlatform(vars, logPath);
  await untilUp(logPath);
  log(`up in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const gatewayUrl = `http://127.0.0.1:${vars.GATEWAY_PORT}`;
  await load(gatewayUrl, await signIn(gatewayUrl));
  await sleep(IDLE_SECONDS * 1000);
  const { rssMb, pssMb, procs } = await report(vars);
  if (DETAIL) await probeReports(procs, vars.MEMORY_PROBE_DIR);
  const [judged, what] = GATE === 'pss' ? [pssMb, 'PSS'] : [rssMb, 'RSS summed'];
  if (judged > LIMIT_MB) throw new Error(`the platform holds ${judged.toFixed(0)} MB (${what}) when idle, over ${LIMIT_MB} MB`);
}

async function stopPlatform() {
  if (!platform || platform.exitCode !== null || platform.signalCode !== null) return;
  const exited = new Promise((resolve) => platform.once('exit', resolve));
  // The launcher stops its services in order (SIGTERM, then SIGKILL after its grace period) and exits; npm follows.
  const launcher = processTree(platform.pid).find((p) => roleOf(p) === 'launcher');
  if (launcher) process.kill(launcher.pid, 'SIGTERM');
  else process.kill(-platform.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-platform.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 30_000);
  await exited;
  clearTimeout(timer);
}

let cleaning;
const cleanup = () =>
  (cleaning ??= (async () => {
    await stopPlatform();
    await backend?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  })());
// The platform runs in a process group of its own, which Ctrl-C does not reach: stop it, and drop what the run made.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    log(`${signal}: stopping the platform and removing this run's databases, streams and keys ...`);
    void cleanup().finally(() => process.exit(130));
  });

await runBench(main, cleanup);
