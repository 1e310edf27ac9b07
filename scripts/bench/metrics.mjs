// `npm run bench:metrics`: a metrics refresh of 100,000 submissions through the real metrics worker.
//
// `npm run bench:metrics` first builds libs/testing and the metrics worker (tsc -b, incremental); this script
// then starts the X stand-in (libs/testing's XApiStandIn, a real HTTP server answering GET /2/tweets in X's
// shapes with X's rate limiting; every post made up from its id, so 100,000 posts need no setup) and the
// worker as real processes (services/metrics-worker/dist/main.js) against the local NATS JetStream and
// Redis, isolated for the run (isolation.mjs: own stream, Redis key prefix; removed at the end).
//
// Each run queues BENCH_METRICS_POSTS (default 100,000) new submissions as jobs of 100 (1,000 jobs) on the
// `metrics` queue, as the submissions scheduler would, and counts the posts stated in metrics.fetched by
// reading the run's stream (every submission must be stated exactly once). Runs:
//   1. baseline: one worker process with no rate limit at X: what the worker itself costs;
//   2. one worker process, then 3. two, with the stand-in set to X's app limit shape for post lookup
//      (BENCH_METRICS_LIMIT requests per window, default 450) but a window of BENCH_METRICS_WINDOW_SECONDS
//      (default 20 s instead of X's 15 minutes) so the run takes a minute, not 45: the wall time is then
//      set by the limit, and the figure to compare it with is the floor the limit allows,
//      (ceil(jobs / limit) - 1) windows.
// Every worker runs with its defaults (METRICS_WORKER_CONCURRENCY=2, 1 s margin after X's reset), LOG_LEVEL=warn.
// Measured: wall time from queueing the first job to the last post stated, requests X answered, 429s it
// sent, the pauses the workers took for the limit (their x_api_rate_limit_waits_total), posts stated, and
// the peak RSS of each worker process (VmHWM).
//
// A markdown table goes to stdout and the figures to artifacts/bench/metrics.json (artifacts/ is git-ignored).
// A post stated twice or never, a timeout or a worker that exits ends the run with a non-zero exit code.
//
//   BENCH_METRICS_POSTS=100000 BENCH_METRICS_LIMIT=450 BENCH_METRICS_WINDOW_SECONDS=20 npm run bench:metrics
import { REFRESH_METRICS_JOB } from '@clipit/contracts';
import { REFRESH_METRICS_JOB_OPTIONS, createMetricsQueue } from '@clipit/media-queue';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isolatedBackend, NATS_URL, REDIS_URL } from './isolation.mjs';
import { freePort, processGroup, waitReady } from './processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The stand-in's built module alone (npm run bench:metrics builds libs/testing first): @clipit/testing's
// entry point also carries its Jest helpers, which cannot load outside Jest.
const { XApiStandIn } = await import(pathToFileURL(join(root, 'libs/testing/dist/x-api-stand-in.js')).href);
const env = (name, def) => process.env[name] || def;
const POSTS = Number(env('BENCH_METRICS_POSTS', '100000'));
const BATCH = 100;
const LIMIT = Number(env('BENCH_METRICS_LIMIT', '450'));
const WINDOW_MS = Number(env('BENCH_METRICS_WINDOW_SECONDS', '20')) * 1000;
const TIMEOUT_MS = Number(env('BENCH_METRICS_TIMEOUT_SECONDS', '600')) * 1000;
const RESULTS_FILE = join(root, 'artifacts', 'bench', 'metrics.json');
const JOBS = Math.ceil(POSTS / BATCH);

const log = (message) => process.stdout.write(`${message}\n`);
const loadAtStart = loadavg()[0];
const group = processGroup(root);
let stopping = false;
let abortRun;
const aborted = new Promise((_, reject) => (abortRun = reject));
aborted.catch(() => undefined);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => abortRun(new Error(`interrupted (${signal})`)));

/** Peak resident set size of a process so far (VmHWM), in MB; undefined where /proc is missing. */
function peakRssMb(pid) {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    return kb / 1024;
  } catch {
    return undefined;
  }
}

/** Sum of a counter's samples in a worker's /metrics text. */
function counterSum(text, name) {
  let sum = 0;
  for (const line of text.split('\n')) if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

/** Counts, per submission id, the posts stated in metrics.fetched on the run's stream. */
async function watchStatedPosts(names) {
  const nc = await connect({ servers: NATS_URL, name: 'bench-metrics' });
  const consumer = await jetstream(nc).consumers.get(names.stream, { filter_subjects: `${names.subjectPrefix}.metrics-worker.>` });
  const messages = await consumer.consume();
  const counts = new Map();
  let lastAt = 0;
  let events = 0;
  const reading = (async () => {
    for await (const msg of messages) {
      const envelope = msg.json();
      events++;
      for (const post of envelope.data.posts) counts.set(post.submissionId, (counts.get(post.submissionId) ?? 0) + 1);
      lastAt = performance.now();
    }
  })();
  return {
    counts,
    stats: () => ({ events, lastAt }),
    async close() {
      await messages.close();
      await reading.catch(() => undefined);
      await nc.close();
    },
  };
}

async function startWorker(label, backend, x) {
  const httpPort = await freePort();
  const child = group.start(label, ['services/metrics-worker/dist/main.js'], {
    ...backend.env,
    METRICS_WORKER_HTTP_PORT: String(httpPort),
    METRICS_WORKER_BIND_HOST: '127.0.0.1',
    X_API_BASE_URL: x.url,
    X_API_BEARER_TOKEN: x.bearerToken,
    LOG_LEVEL: 'warn',
  });
  child.once('exit', (code, signal) => {
    if (!stopping) abortRun(new Error(`${label} exited during the run (${signal ?? `code ${code}`})`));
  });
  await waitReady(`http://127.0.0.1:${httpPort}/health/ready`, label, child);
  return { label, child, httpPort };
}

/** One run: `processes` workers, the stand-in at `limit` requests per window; answers its figures. */
async function run(name, processes, limit, backend, x, queue) {
  log(`- ${name}: ${processes} worker process(es), X at ${limit === Infinity ? 'no limit' : `${limit} requests / ${WINDOW_MS / 1000} s`}`);
  x.setRateLimit(limit === Infinity ? Number.MAX_SAFE_INTEGER : limit, WINDOW_MS);
  await queue.removeRateLimitKey();
  const before = { ...x.counters };
  const workers = [];
  for (let i = 0; i < processes; i++) workers.push(await startWorker(`metrics-worker#${i + 1} (${name})`, backend, x));
  // The stream exists once a worker has started (it declares it).
  watcher ??= await watchStatedPosts(backend.names);

  const runId = randomUUID().slice(0, 8);
  const base = BigInt(Date.now()) * 1_000_000n;
  const submissions = [];
  const jobs = [];
  for (let j = 0; j < JOBS; j++) {
    const posts = [];
    for (let k = 0; k < BATCH && j * BATCH + k < POSTS; k++) {
      const submissionId = randomUUID();
      submissions.push(submissionId);
      posts.push({ submissionId, externalId: String(base + BigInt(j * BATCH + k)) });
    }
    const batchId = `bench-${runId}-${j}`;
    jobs.push({ name: REFRESH_METRICS_JOB, data: { batchId, posts }, opts: { ...REFRESH_METRICS_JOB_OPTIONS, jobId: batchId } });
  }

  const t0 = performance.now();
  for (let i = 0; i < jobs.length; i += 250) await queue.addBulk(jobs.slice(i, i + 250));
  const deadline = Date.now() + TIMEOUT_MS;
  let stated = 0;
  for (;;) {
    stated = submissions.reduce((n, id) => n + (watcher.counts.has(id) ? 1 : 0), 0);
    if (stated === submissions.length) break;
    if (Date.now() > deadline) throw new Error(`${name}: timed out after ${TIMEOUT_MS / 1000} s with ${stated} of ${submissions.length} posts stated`);
    await Promise.race([new Promise((r) => setTimeout(r, 250)), aborted]);
  }
  // Let a late duplicate show up before judging "exactly once".
  await new Promise((r) => setTimeout(r, 1000));
  const wallMs = watcher.stats().lastAt - t0;
  const duplicates = submissions.filter((id) => watcher.counts.get(id) !== 1).length;

  let waits = 0;
  let waitSeconds = 0;
  const rss = [];
  for (const w of workers) {
    const text = await (await fetch(`http://127.0.0.1:${w.httpPort}/metrics`)).text();
    waits += counterSum(text, 'x_api_rate_limit_waits_total');
    waitSeconds += counterSum(text, 'x_api_rate_limit_wait_seconds_total');
    rss.push(peakRssMb(w.child.pid));
  }
  stopping = true;
  for (const w of workers) {
    const exited = new Promise((r) => w.child.once('exit', r));
    w.child.kill('SIGTERM');
    await exited;
  }
  stopping = false;

  const requests = x.counters.requests - before.requests;
  const tooMany = x.counters.tooManyRequests - before.tooManyRequests;
  const floorMs = limit === Infinity ? 0 : (Math.ceil(JOBS / limit) - 1) * WINDOW_MS;
  const result = { name, processes, limit: limit === Infinity ? null : limit, windowSeconds: WINDOW_MS / 1000, wallMs, floorMs, requests, tooManyRequests: tooMany, rateLimitWaits: waits, rateLimitWaitSeconds: waitSeconds, posts: submissions.length, stated, statedOtherThanOnce: duplicates, peakRssMb: rss };
  log(`  ${(wallMs / 1000).toFixed(1)} s, ${requests} requests, ${tooMany} × 429, ${waits} pauses, ${stated} posts stated, ${duplicates} not exactly once`);
  if (duplicates > 0) throw new Error(`${name}: ${duplicates} submissions were stated other than exactly once`);
  return result;
}

let backend;
let x;
let watcher;
let queue;
let exitCode = 0;
try {
  log(`# bench:metrics: ${POSTS.toLocaleString('en')} posts in ${JOBS} jobs of ${BATCH}; ${cpus().length} cores, load ${loadAtStart.toFixed(2)} at start`);
  backend = await isolatedBackend('metrics');
  x = await new XApiStandIn({ generate: true }).start();
  x.logRequests = false;
  queue = createMetricsQueue({ redisUrl: REDIS_URL, prefix: backend.names.redisKeyPrefix });

  const results = [];
  results.push(await run('baseline: no limit at X', 1, Infinity, backend, x, queue));
  results.push(await run('1 process at X limit', 1, LIMIT, backend, x, queue));
  results.push(await run('2 processes at X limit', 2, LIMIT, backend, x, queue));

  const mb = (v) => (v === undefined ? 'n/a' : `${v.toFixed(0)} MB`);
  log('');
  log(`X stand-in: ${LIMIT} requests per ${WINDOW_MS / 1000} s window (X's app limit shape for GET /2/tweets, the 15-minute window shortened), every answer 100 posts.`);
  log('');
  log('| run | worker processes | wall time | floor set by the limit | requests | 429s | rate-limit pauses (s asked) | posts stated once | peak RSS per process |');
  log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    log(
      `| ${r.name} | ${r.processes} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.limit === null ? '—' : `${(r.floorMs / 1000).toFixed(0)} s`} | ${r.requests} | ${r.tooManyRequests} | ${r.rateLimitWaits} (${r.rateLimitWaitSeconds.toFixed(0)} s) | ${(r.stated - r.statedOtherThanOnce).toLocaleString('en')} / ${r.posts.toLocaleString('en')} | ${r.peakRssMb.map(mb).join(', ')} |`,
    );
  }
  log('');
  log(`Repeat: BENCH_METRICS_POSTS=${POSTS} BENCH_METRICS_LIMIT=${LIMIT} BENCH_METRICS_WINDOW_SECONDS=${WINDOW_MS / 1000} npm run bench:metrics`);
  await mkdir(join(root, 'artifacts', 'bench'), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, loadAtStart, posts: POSTS, jobs: JOBS, limit: LIMIT, windowSeconds: WINDOW_MS / 1000, results }, null, 2)}\n`);
} catch (err) {
  console.error(`bench:metrics failed: ${err.message}`);
  exitCode = 1;
} finally {
  stopping = true;
  await group.stop();
  await watcher?.close();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  await x?.close();
  await backend?.cleanup();
}
process.exit(exitCode);
