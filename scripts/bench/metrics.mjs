// `npm run bench:metrics`: a metrics refresh of 100,000 submissions through the real metrics worker, and
// the same refresh through the whole pipeline, from the submissions service's scheduler to its applied rows.
//
// `npm run bench:metrics` first builds libs/testing, the metrics worker and submissions (tsc -b,
// incremental); this script then starts the X stand-in (libs/testing's XApiStandIn, a real HTTP server
// answering GET /2/tweets in X's shapes with X's rate limiting; every post made up from its id, so 100,000
// posts need no setup) and the worker as real processes (services/metrics-worker/dist/main.js) against the
// local NATS JetStream and Redis, isolated for the run (isolation.mjs: own stream, Redis key prefix;
// removed at the end).
//
// Runs 1 to 3 queue BENCH_METRICS_POSTS (default 100,000) new submissions as jobs of 100 (1,000 jobs) on
// the `metrics` queue, as the submissions scheduler would, and count the posts stated in metrics.fetched by
// reading the run's stream (every submission must be stated exactly once):
//   1. baseline: one worker process with no rate limit at X: what the worker itself costs;
//   2. one worker process, then 3. two, with the stand-in set to X's app limit shape for post lookup
//      (BENCH_METRICS_LIMIT requests per window, default 450) but a window of BENCH_METRICS_WINDOW_SECONDS
//      (default 20 s instead of X's 15 minutes) so the run takes a minute, not 45: the wall time is then
//      set by the limit, and the figure to compare it with is the floor the limit allows,
//      (ceil(jobs / limit) - 1) windows.
// Run 4, through submissions, has a backend of its own (database, stream, Redis prefix: submissions'
// durable consumer would otherwise read runs 1 to 3's events first). A real submissions process
// (services/submissions/dist/main.js; IDENTITY_GRPC_URL points at nothing: only tagged submissions call
// identity, and its readiness only reports it) boots once to migrate its database and stops; then
// BENCH_METRICS_POSTS approved X submissions, due now, are written straight into its table (one INSERT per
// 5,000 rows; verification codes from submissions' own generator, half of them put in their post's text
// at the stand-in so those posts verify), two worker processes start, and submissions starts again with
// METRICS_SCHEDULER_INTERVAL_SECONDS=1 and METRICS_SCHEDULER_MAX_BATCHES=BENCH_METRICS_SCHEDULER_BATCHES
// (default 100) so the scheduler is not what limits the run; the stand-in is at the limit of runs 2 and 3.
// Its wall time runs from submissions being ready to every row having last_metrics_fetch set (the
// scheduler's rounds, the queue, X, metrics.fetched and submissions applying it in Postgres, all in it).
// Every row must be read exactly once (one history row each, each post stated once and asked of X once),
// and the verified half, no more, must have written metrics.updated to submissions' outbox.
//
// Every worker runs with its defaults (METRICS_WORKER_CONCURRENCY=2, 1 s margin after X's reset), LOG_LEVEL=warn.
// Measured: wall time, requests X answered, 429s it sent, the pauses the workers took for the limit (their
// x_api_rate_limit_waits_total), posts stated, and the peak RSS of each process (VmHWM); for run 4 also the
// rows read, history rows, verified posts and metrics.updated events, and submissions' peak RSS and CPU time.
// Runs 1 to 3 each time out after BENCH_METRICS_TIMEOUT_SECONDS (600), run 4 after
// BENCH_METRICS_PIPELINE_TIMEOUT_SECONDS (1800).
//
// Markdown tables go to stdout and the figures to artifacts/bench/metrics.json (artifacts/ is git-ignored).
// A post stated or read twice or never, a count of history rows or metrics.updated events other than
// expected, a timeout or a process that exits ends the run with a non-zero exit code.
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
import pg from 'pg';
import { BaselineBroken, refuseBaseline, timedProblems } from './baseline.mjs';
import { isolatedBackend, NATS_URL, REDIS_URL } from './isolation.mjs';
import { cpuMs, freePort, processGroup, waitReady } from './processes.mjs';
import { WALLET } from './seed.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The stand-in's built module alone (npm run bench:metrics builds libs/testing first): @clipit/testing's
// entry point also carries its Jest helpers, which cannot load outside Jest.
const { XApiStandIn } = await import(pathToFileURL(join(root, 'libs/testing/dist/x-api-stand-in.js')).href);
// Run 4's codes come from submissions' own generator (its built domain module, pure: no Nest, no I/O).
const { newVerificationCode } = await import(pathToFileURL(join(root, 'services/submissions/dist/domain/verification.js')).href);
const env = (name, def) => process.env[name] || def;
const POSTS = Number(env('BENCH_METRICS_POSTS', '100000'));
const BATCH = 100;
const LIMIT = Number(env('BENCH_METRICS_LIMIT', '450'));
const WINDOW_MS = Number(env('BENCH_METRICS_WINDOW_SECONDS', '20')) * 1000;
const TIMEOUT_MS = Number(env('BENCH_METRICS_TIMEOUT_SECONDS', '600')) * 1000;
// Run 4 applies every post in Postgres, one metrics.fetched at a time: it takes longer than runs 1 to 3.
const PIPELINE_TIMEOUT_MS = Number(env('BENCH_METRICS_PIPELINE_TIMEOUT_SECONDS', '1800')) * 1000;
const SCHEDULER_BATCHES = Number(env('BENCH_METRICS_SCHEDULER_BATCHES', '100'));
const SEED_ROWS_PER_INSERT = 5000;
const SEED_USERS = 1000;
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
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
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

/** Stops processes the run started (SIGTERM, waiting for each to exit) without counting it as a failure. */
async function stopChildren(children) {
  stopping = true;
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  stopping = false;
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
    if (Date.now() > deadline)
      throw new Error(`${name}: timed out after ${TIMEOUT_MS / 1000} s with ${stated} of ${submissions.length} posts stated`);
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
  await stopChildren(workers.map((w) => w.child));

  const requests = x.counters.requests - before.requests;
  const tooMany = x.counters.tooManyRequests - before.tooManyRequests;
  const floorMs = limit === Infinity ? 0 : (Math.ceil(JOBS / limit) - 1) * WINDOW_MS;
  const result = {
    name,
    processes,
    limit: limit === Infinity ? null : limit,
    windowSeconds: WINDOW_MS / 1000,
    wallMs,
    floorMs,
    requests,
    tooManyRequests: tooMany,
    rateLimitWaits: waits,
    rateLimitWaitSeconds: waitSeconds,
    posts: submissions.length,
    stated,
    statedOtherThanOnce: duplicates,
    peakRssMb: rss,
  };
  log(
    `  ${(wallMs / 1000).toFixed(1)} s, ${requests} requests, ${tooMany} × 429, ${waits} pauses, ${stated} posts stated, ${duplicates} not exactly once`,
  );
  if (duplicates > 0) throw new Error(`${name}: ${duplicates} submissions were stated other than exactly once`);
  return result;
}

/**
 * Run 4, through submissions: a real submissions process schedules POSTS approved submissions written
 * straight into its database, `processes` workers ask X at `limit` requests per window, and submissions
 * applies what they state. Answers its figures; throws when a row is read other than once.
 */
async function pipelineRun(name, processes, limit, x) {
  log(
    `- ${name}: submissions (scheduler every 1 s, up to ${SCHEDULER_BATCHES} batches a round) and ${processes} worker process(es), X at ${limit} requests / ${WINDOW_MS / 1000} s`,
  );
  pipelineBackend = await isolatedBackend('metricssub', { otherDatabases: ['submissions'] });
  const backend = pipelineBackend;
  x.setRateLimit(limit, WINDOW_MS);
  const [grpcPort, httpPort, nobodyPort] = [await freePort(), await freePort(), await freePort()];
  const submissionsEnv = {
    ...backend.env,
    LOG_LEVEL: 'warn',
    SUBMISSIONS_DATABASE_URL: backend.databaseUrls.submissions,
    SUBMISSIONS_GRPC_PORT: String(grpcPort),
    SUBMISSIONS_HTTP_PORT: String(httpPort),
    SUBMISSIONS_BIND_HOST: '127.0.0.1',
    // Nothing listens there: no submission of the run tags a streamer or token, and identity's readiness is reported, not required.
    IDENTITY_GRPC_URL: `127.0.0.1:${nobodyPort}`,
    METRICS_SCHEDULER_INTERVAL_SECONDS: '1',
    METRICS_SCHEDULER_MAX_BATCHES: String(SCHEDULER_BATCHES),
  };
  const readyUrl = `http://127.0.0.1:${httpPort}/health/ready`;

  // The first boot only migrates the database (and declares the stream and submissions' consumer).
  const migrating = group.start(`submissions (migrations, ${name})`, ['services/submissions/dist/main.js'], submissionsEnv);
  await waitReady(readyUrl, 'submissions (migrations)', migrating, 90_000);
  await stopChildren([migrating]);

  const db = new pg.Client({ connectionString: backend.databaseUrls.submissions });
  await db.connect();
  let stated;
  const children = [];
  try {
    // POSTS approved X posts, due now, owned by SEED_USERS clippers; even rows hold their code in the post's text.
    const seed0 = performance.now();
    const base = BigInt(Date.now()) * 1_000_000n;
    const users = Array.from({ length: SEED_USERS }, (_, u) => ({ id: randomUUID(), handle: `bench_${u}` }));
    const submissions = [];
    let verifiable = 0;
    for (let start = 0; start < POSTS; start += SEED_ROWS_PER_INSERT) {
      const rows = { id: [], userId: [], externalId: [], handle: [], code: [] };
      for (let i = start; i < Math.min(start + SEED_ROWS_PER_INSERT, POSTS); i++) {
        const id = randomUUID();
        const user = users[i % SEED_USERS];
        const externalId = String(base + BigInt(i));
        const code = newVerificationCode();
        submissions.push(id);
        rows.id.push(id);
        rows.userId.push(user.id);
        rows.externalId.push(externalId);
        rows.handle.push(user.handle);
        rows.code.push(code);
        if (i % 2 === 0) {
          x.setPost(externalId, { text: `Clip post ${externalId} ${code} #clipit` });
          verifiable++;
        }
      }
      await db.query(
        `INSERT INTO submissions (id, user_id, name, url, platform, external_id, author_handle, wallet_address, verification_code,
                                  status, added_to_feed, approved_at, metrics_due_at, created_at, updated_at)
         SELECT t.id, t.user_id, 'Bench clip ' || t.external_id, 'https://x.com/' || t.handle || '/status/' || t.external_id, 'twitter',
                t.external_id, t.handle, $6, t.code, 'approved', true, now(), now(), now(), now()
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[]) AS t (id, user_id, external_id, handle, code)`,
        [rows.id, rows.userId, rows.externalId, rows.handle, rows.code, WALLET],
      );
    }
    await db.query('ANALYZE submissions');
    const seedMs = performance.now() - seed0;
    log(
      `  seeded ${POSTS.toLocaleString('en')} approved submissions (${verifiable.toLocaleString('en')} with their code in the post) in ${(seedMs / 1000).toFixed(1)} s`,
    );

    const before = { ...x.counters };
    const workers = [];
    for (let i = 0; i < processes; i++) workers.push(await startWorker(`metrics-worker#${i + 1} (${name})`, backend, x));
    children.push(...workers.map((w) => w.child));
    stated = await watchStatedPosts(backend.names);

    const boot0 = performance.now();
    const service = group.start(`submissions (${name})`, ['services/submissions/dist/main.js'], submissionsEnv);
    children.push(service);
    service.once('exit', (code, signal) => {
      if (!stopping) abortRun(new Error(`submissions exited during the run (${signal ?? `code ${code}`})`));
    });
    await waitReady(readyUrl, 'submissions', service, 90_000);
    const t0 = performance.now();
    const bootMs = t0 - boot0;

    const deadline = Date.now() + PIPELINE_TIMEOUT_MS;
    let nextProgress = Date.now() + 30_000;
    let read = 0;
    for (;;) {
      read = (await db.query('SELECT count(*)::int AS n FROM submissions WHERE last_metrics_fetch IS NOT NULL')).rows[0].n;
      if (read === POSTS) break;
      if (Date.now() > deadline)
        throw new Error(`${name}: timed out after ${PIPELINE_TIMEOUT_MS / 1000} s with ${read} of ${POSTS} rows read`);
      if (Date.now() > nextProgress) {
        log(
          `  ${((performance.now() - t0) / 1000).toFixed(0)} s: ${read.toLocaleString('en')} rows read, ${x.counters.requests - before.requests} requests to X`,
        );
        nextProgress += 30_000;
      }
      await Promise.race([new Promise((r) => setTimeout(r, 250)), aborted]);
    }
    const wallMs = performance.now() - t0;
    // Let a late duplicate show up before judging "exactly once".
    await new Promise((r) => setTimeout(r, 2000));

    const one = async (sql) => (await db.query(sql)).rows[0];
    const { history, readTwice } = await one(
      `SELECT coalesce(sum(n), 0)::int AS history, count(*) FILTER (WHERE n > 1)::int AS "readTwice"
         FROM (SELECT count(*) AS n FROM submission_metrics_history GROUP BY submission_id) h`,
    );
    const { neverRead, notFetched, verified } = await one(
      `SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM submission_metrics_history h WHERE h.submission_id = s.id))::int AS "neverRead",
              count(*) FILTER (WHERE s.last_metrics_fetch IS NULL)::int AS "notFetched",
              count(*) FILTER (WHERE s.verified_at IS NOT NULL)::int AS verified
         FROM submissions s`,
    );
    const { metricsUpdated } = await one(`SELECT count(*)::int AS "metricsUpdated" FROM outbox WHERE type = 'metrics.updated'`);
    const statedOtherThanOnce = submissions.filter((id) => stated.counts.get(id) !== 1).length;

    let waits = 0;
    let waitSeconds = 0;
    const rss = [];
    for (const w of workers) {
      const text = await (await fetch(`http://127.0.0.1:${w.httpPort}/metrics`)).text();
      waits += counterSum(text, 'x_api_rate_limit_waits_total');
      waitSeconds += counterSum(text, 'x_api_rate_limit_wait_seconds_total');
      rss.push(peakRssMb(w.child.pid));
    }
    const submissionsRss = peakRssMb(service.pid);
    const submissionsCpuMs = cpuMs(service);
    await stopChildren([service, ...workers.map((w) => w.child)]);

    const requests = x.counters.requests - before.requests;
    const tooMany = x.counters.tooManyRequests - before.tooManyRequests;
    const idsAsked = x.counters.idsLookedUp - before.idsLookedUp;
    const jobs = Math.ceil(POSTS / BATCH);
    const result = {
      name,
      processes,
      limit,
      windowSeconds: WINDOW_MS / 1000,
      wallMs,
      floorMs: (Math.ceil(jobs / limit) - 1) * WINDOW_MS,
      requests,
      tooManyRequests: tooMany,
      rateLimitWaits: waits,
      rateLimitWaitSeconds: waitSeconds,
      posts: POSTS,
      stated: submissions.length - submissions.filter((id) => !stated.counts.has(id)).length,
      statedOtherThanOnce,
      peakRssMb: rss,
      submissionsPeakRssMb: submissionsRss,
      submissionsCpuMs,
      schedulerMaxBatches: SCHEDULER_BATCHES,
      seedMs,
      submissionsBootMs: bootMs,
      idsAskedOfX: idsAsked,
      rowsReadOnce: POSTS - neverRead - readTwice,
      rowsReadTwice: readTwice,
      rowsNeverRead: neverRead,
      rowsWithoutLastMetricsFetch: notFetched,
      historyRows: history,
      verifiable,
      verified,
      metricsUpdatedEvents: metricsUpdated,
    };
    log(
      `  ${(wallMs / 1000).toFixed(1)} s, ${requests} requests, ${tooMany} × 429, ${waits} pauses, ${history} history rows, ${readTwice} rows read twice, ${neverRead} never, ${verified} verified, ${metricsUpdated} metrics.updated`,
    );
    const problems = [
      readTwice > 0 && `${readTwice} rows were read more than once`,
      neverRead > 0 && `${neverRead} rows were never read`,
      history !== POSTS && `${history} history rows, expected ${POSTS}`,
      statedOtherThanOnce > 0 && `${statedOtherThanOnce} submissions were stated in metrics.fetched other than exactly once`,
      idsAsked !== POSTS && `X was asked for ${idsAsked} posts, expected ${POSTS}`,
      verified !== verifiable && `${verified} posts verified, expected ${verifiable}`,
      metricsUpdated !== verifiable && `${metricsUpdated} metrics.updated events in the outbox, expected ${verifiable}`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`${name}: ${problems.join('; ')}`);
    return result;
  } finally {
    await stopChildren(children);
    await stated?.close();
    await db.end();
  }
}

let backend;
let pipelineBackend;
let x;
let watcher;
let queue;
let exitCode = 0;
try {
  log(
    `# bench:metrics: ${POSTS.toLocaleString('en')} posts in ${JOBS} jobs of ${BATCH}; ${cpus().length} cores, load ${loadAtStart.toFixed(2)} at start`,
  );
  backend = await isolatedBackend('metrics');
  x = await new XApiStandIn({ generate: true }).start();
  x.logRequests = false;
  queue = createMetricsQueue({ connection: { url: REDIS_URL }, prefix: backend.names.redisKeyPrefix });

  const results = [];
  const baseline = await run('baseline: no limit at X', 1, Infinity, backend, x, queue);
  // Runs 2 to 4 are read against it: refused when X limited it anyway or it did not do the work.
  refuseBaseline(
    baseline.name,
    [
      ...timedProblems(baseline.wallMs),
      baseline.tooManyRequests > 0 && `X answered ${baseline.tooManyRequests} × 429 with no limit set`,
      baseline.requests < JOBS && `${baseline.requests} requests to X for ${JOBS} jobs`,
      baseline.stated !== baseline.posts && `${baseline.stated} of ${baseline.posts} posts stated`,
    ],
    'no table printed',
  );
  results.push(baseline);
  results.push(await run('1 process at X limit', 1, LIMIT, backend, x, queue));
  results.push(await run('2 processes at X limit', 2, LIMIT, backend, x, queue));
  const pipeline = await pipelineRun('through submissions, 2 processes at X limit', 2, LIMIT, x);
  results.push(pipeline);

  const mb = (v) => (v === undefined ? 'n/a' : `${v.toFixed(0)} MB`);
  log('');
  log(
    `X stand-in: ${LIMIT} requests per ${WINDOW_MS / 1000} s window (X's app limit shape for GET /2/tweets, the 15-minute window shortened), every answer 100 posts.`,
  );
  log('');
  log(
    'Wall time: runs 1 to 3 from queueing the first job to the last post stated in metrics.fetched; run 4 from submissions being ready to the last row applied.',
  );
  log('');
  log(
    '| run | worker processes | wall time | floor set by the limit | requests | 429s | rate-limit pauses (s asked) | posts stated once | peak RSS per process |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const rss = `${r.peakRssMb.map(mb).join(', ')}${'submissionsPeakRssMb' in r ? `; submissions ${mb(r.submissionsPeakRssMb)}` : ''}`;
    log(
      `| ${r.name} | ${r.processes} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.limit === null ? '—' : `${(r.floorMs / 1000).toFixed(0)} s`} | ${r.requests} | ${r.tooManyRequests} | ${r.rateLimitWaits} (${r.rateLimitWaitSeconds.toFixed(0)} s) | ${(r.stated - r.statedOtherThanOnce).toLocaleString('en')} / ${r.posts.toLocaleString('en')} | ${rss} |`,
    );
  }
  log('');
  const n = (v) => v.toLocaleString('en');
  log(
    `Run 4 in submissions' database (scheduler every 1 s, up to ${pipeline.schedulerMaxBatches} batches of 100 a round; ${n(POSTS)} rows seeded in ${(pipeline.seedMs / 1000).toFixed(1)} s, submissions ready ${(pipeline.submissionsBootMs / 1000).toFixed(1)} s after its start):`,
  );
  log('');
  log(
    '| run | rows read once | read twice | never read | history rows | posts asked of X | verified (code in the post) | metrics.updated in the outbox | submissions CPU time |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  log(
    `| ${pipeline.name} | ${n(pipeline.rowsReadOnce)} / ${n(POSTS)} | ${n(pipeline.rowsReadTwice)} | ${n(pipeline.rowsNeverRead)} | ${n(pipeline.historyRows)} | ${n(pipeline.idsAskedOfX)} | ${n(pipeline.verified)} / ${n(pipeline.verifiable)} | ${n(pipeline.metricsUpdatedEvents)} | ${pipeline.submissionsCpuMs === undefined ? 'n/a' : `${(pipeline.submissionsCpuMs / 1000).toFixed(1)} s`} |`,
  );
  log('');
  log(
    `Repeat: BENCH_METRICS_POSTS=${POSTS} BENCH_METRICS_LIMIT=${LIMIT} BENCH_METRICS_WINDOW_SECONDS=${WINDOW_MS / 1000} npm run bench:metrics`,
  );
  await mkdir(join(root, 'artifacts', 'bench'), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, loadAtStart, posts: POSTS, jobs: JOBS, limit: LIMIT, windowSeconds: WINDOW_MS / 1000, results }, null, 2)}\n`,
  );
} catch (err) {
  console.error(err instanceof BaselineBroken ? err.message : `bench:metrics failed: ${err.message}`);
  exitCode = 1;
} finally {
  stopping = true;
  await group.stop();
  await watcher?.close();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  await x?.close();
  await backend?.cleanup();
  await pipelineBackend?.cleanup();
}
process.exit(exitCode);
