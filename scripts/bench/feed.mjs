// Benchmark of the public read path, at the issue's size, in three parts:
//  1. Seed: BENCH_USERS users (10,000; one in twenty a streamer), BENCH_CLIPS approved clips in the feed
//     with a processed video (100,000) and BENCH_LIKES likes (200,000), as the events their owners publish
//     (user.registered, submission.approved, social.liked: the bulk loader), put on the run's stream, then
//     built into the read models by `feed:replay --swap` — the feed's own projection code, the rows the
//     live consumer would write — which also starts the live consumer after them. Prints the replay's time
//     and the feed service's memory once it runs.
//  2. Throughput: GET /api/feed/clips?limit=10 and GET /api/leaderboard/posts through the gateway (read
//     cache), each against a bare node:http server answering the very same bytes and headers, same
//     autocannon settings (BENCH_CONNECTIONS=100, BENCH_DURATION=10 s) and Accept-Encoding, in this run;
//     prints the ratios, unless the bare server is broken (baseline.mjs: an answer not 2xx, an error,
//     under 1,000 req/s or a p99 over 1 s: "baseline broken: …; no ratio printed", exit 1),
//     and as a baseline the same reads through a second gateway with its read cache off
//     (PUBLIC_READ_CACHE_TTL_MS=0: every read one gRPC call to the feed service).
//  3. Freshness: BENCH_FRESHNESS_TRIALS clips (30) submitted with a real video (the media worker transcodes
//     it), then each approved into the feed through the admin route: the time from the approval's answer
//     until GET /api/feed/clips shows it; then from remove-from-feed's answer until it is gone; then from a
//     like's answer until likeCount shows it. p50/p95/max of each.
//
//   npm run bench:feed      (part of npm run bench; it builds the services first, tsc -b)
//
// It runs them as processes on databases, JetStream stream
// names, a Redis prefix and a storage folder of its own, and removes all of them when it ends.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesizeClip } from '@clipit/media';
import { isolatedBackend } from './isolation.mjs';
import { runBench, HTTP_STATIC_FLOORS } from './baseline.mjs';
import { log, measure } from './measure.mjs';
import { cpuMs, freePort, processGroup, waitReady } from './processes.mjs';
import { gatewayApi, residentMb, SAME_ENCODING, sampleAnswer, startBareServer, startGateway, startServices } from './services.mjs';
import { seedEvents, WALLET } from './seed.mjs';
import { replayFeed, untilConsumersCaughtUp } from './replay.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '100'));
const DURATION = Number(env('BENCH_DURATION', '10'));
const USERS = Number(env('BENCH_USERS', '10000'));
const CLIPS = Number(env('BENCH_CLIPS', '100000'));
const LIKES = Number(env('BENCH_LIKES', '200000'));
const TRIALS = Number(env('BENCH_FRESHNESS_TRIALS', '30'));

const group = processGroup(root);
let backend;
let scratch;

/** `q` of sorted numbers (nearest rank). */
function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function summary(label, values) {
  const sorted = [...values].sort((a, b) => a - b);
  log(
    `${label.padEnd(44)} p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms (${sorted.length} trials)`,
  );
  return percentile(sorted, 0.95);
}

/** The bulk loader (seed.mjs) at this run's size. */
async function seed(names) {
  const seeded = await seedEvents(backend.env.NATS_URL, names, { users: USERS, clips: CLIPS, likes: LIKES });
  log(`published ${USERS} users, ${CLIPS} clips and ${LIKES} likes as events in ${(seeded.ms / 1000).toFixed(1)} s`);
}

/** What the gateway did during a run, from its metrics before and after: cache outcomes, front answers, GC. */
function gatewayReadings(before, after) {
  const sum = (text, re) => [...text.matchAll(re)].reduce((t, m) => t + Number(m[1]), 0);
  const diff = (re) => sum(after, re) - sum(before, re);
  const outcome = (o) => diff(new RegExp(`^gateway_read_cache_total\\{[^}]*outcome="${o}"[^}]*\\} (\\S+)$`, 'gm'));
  // The event loop's delay histogram is reset by each scrape: `after` holds the run's.
  const lag = (q) => (Number(new RegExp(`^nodejs_eventloop_lag_${q}_seconds\\{[^}]*\\} (\\S+)$`, 'm').exec(after)?.[1]) * 1000).toFixed(1);
  const gc = (field) => diff(new RegExp(`^nodejs_gc_duration_seconds_${field}\\{[^}]*\\} (\\S+)$`, 'gm'));
  return `  gateway during the run: front answers ${diff(/^gateway_front_answers_total\{[^}]*\} (\S+)$/gm)}, cache hits ${outcome('hit')}, misses ${outcome('miss')}, joined ${outcome('joined')}; GC ${gc('count')} pauses, ${(gc('sum') * 1000).toFixed(0)} ms in all; event loop delay p99 ${lag('p99')} ms, max ${lag('max')} ms`;
}

/** The CPU time `child` spent per request of `result` since `beforeMs` (cpuMs), as text. */
const cpuPerRequest = (child, beforeMs, result) => `${((((cpuMs(child) ?? NaN) - beforeMs) * 1000) / result.requests.total).toFixed(0)} µs`;

async function compare(label, path, gw, uncachedGw) {
  // The answer as it crossed the wire to a request like the load's; every run below asks the same.
  const sample = await sampleAnswer(`${gw.url}${path}`, { headers: SAME_ENCODING });
  if (sample.status !== 200) throw new Error(`${path} answered ${sample.status}: ${sample.body}`);
  const body = sample.body;
  const { url: bareUrl, child: bare } = await startBareServer(group, `bare ${label}`, sample);
  log(`\n${label}: ${body.length} bytes${sample.headers['content-encoding'] ? ` (${sample.headers['content-encoding']})` : ''}`);
  const opts = { connections: CONNECTIONS, duration: DURATION, warmConnections: 10, labelWidth: 34 };
  // Each run also reports the CPU its server spent per request, which other load changes far less than req/s.
  let [before, cpu] = ['', 0];
  const gateway = await measure(
    `gateway ${path}`,
    { url: `${gw.url}${path}`, headers: SAME_ENCODING },
    {
      ...opts,
      afterWarmUp: async () => {
        before = await (await fetch(`${gw.url}/metrics`)).text();
        cpu = cpuMs(gw.child);
      },
    },
  );
  const gatewayCpu = cpuPerRequest(gw.child, cpu, gateway);
  log(gatewayReadings(before, await (await fetch(`${gw.url}/metrics`)).text()));
  const uncached = await measure(
    'gateway, no read cache',
    { url: `${uncachedGw.url}${path}`, headers: SAME_ENCODING },
    { ...opts, afterWarmUp: () => void (cpu = cpuMs(uncachedGw.child)) },
  );
  const uncachedCpu = cpuPerRequest(uncachedGw.child, cpu, uncached);
  const plain = await measure(
    'bare node:http, same bytes',
    { url: `${bareUrl}/`, headers: SAME_ENCODING },
    {
      ...opts,
      baseline: HTTP_STATIC_FLOORS,
      afterWarmUp: () => void (cpu = cpuMs(bare)),
    },
  );
  const bareCpu = cpuPerRequest(bare, cpu, plain);
  const ratio = gateway.requests.average / plain.requests.average;
  const uncachedRatio = uncached.requests.average / plain.requests.average;
  log(`CPU per request: gateway ${gatewayCpu}, gateway without the read cache ${uncachedCpu} (+ the feed service's), bare ${bareCpu}`);
  log(`gateway / bare = ${ratio.toFixed(3)} (${(ratio * 100).toFixed(1)}%), gateway p99 ${gateway.latency.p99} ms`);
  log(`without the read cache: ${(uncachedRatio * 100).toFixed(1)}% of bare, p99 ${uncached.latency.p99} ms`);
  return { ratio, p99: gateway.latency.p99, uncachedRatio, uncachedP99: uncached.latency.p99 };
}

async function main() {
  backend = await isolatedBackend('benchfeed', { otherDatabases: ['submissions', 'admin', 'campaigns', 'social', 'feed'] });
  const names = { stream: backend.env.EVENTS_STREAM, subjectPrefix: backend.env.EVENTS_SUBJECT_PREFIX };
  await seed(names);
  const rebuilt = await replayFeed(root, backend);
  log(`feed:replay --swap built the read models from ${rebuilt.applied} events in ${(rebuilt.ms / 1000).toFixed(1)} s`);

  const gatewayLog = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info' };
  const { gatewayUrl, adminPassword, children, grpc } = await startServices(
    group,
    backend,
    ['identity', 'submissions', 'campaigns', 'social', 'feed', 'admin'],
    {
      serviceEnv: { gateway: gatewayLog },
    },
  );
  // The baseline: the same gateway with its read cache off, every read one call to the feed service.
  const uncached = await startGateway(group, backend, grpc, { ...gatewayLog, PUBLIC_READ_CACHE_TTL_MS: '0' }, 'gateway (no read cache)');
  const workerPort = await freePort();
  scratch = await mkdtemp(join(tmpdir(), 'clipit-bench-feed-'));
  const worker = group.start('media-worker', ['services/media-worker/dist/main.js'], {
    ...backend.env,
    LOG_LEVEL: 'warn',
    MEDIA_WORKER_HTTP_PORT: String(workerPort),
    MEDIA_WORKER_BIND_HOST: '127.0.0.1',
    MEDIA_WORKER_CONCURRENCY: '2',
    MEDIA_WORKER_TMP_DIR: scratch,
  });
  await waitReady(`http://127.0.0.1:${workerPort}/health/ready`, 'media-worker', worker, 90_000);
  // Every other consumer (social keeps its own clips and people; the rest skip what is not theirs) works
  // through the seeded events too: measured once the whole platform has caught up.
  const caughtUp = performance.now();
  await untilConsumersCaughtUp(backend, names);
  log(`every service's consumer caught up with the seeded stream in ${((performance.now() - caughtUp) / 1000).toFixed(1)} s`);
  const api = gatewayApi(gatewayUrl);
  const first = await (await api('/api/feed/clips?limit=10')).json();
  if (first.submissions.length !== 10) throw new Error(`the feed answered ${first.submissions.length} clips`);
  log(
    `feed service memory with ${CLIPS} clips, ${USERS} users, ${LIKES} likes: ${(await residentMb(children.feed))?.toFixed(0)} MB resident`,
  );

  const cached = { url: gatewayUrl, child: children.gateway };
  const feed = await compare('GET /api/feed/clips?limit=10 (a visitor)', '/api/feed/clips?limit=10', cached, uncached);
  const posts = await compare('GET /api/leaderboard/posts', '/api/leaderboard/posts', cached, uncached);
  log(
    `feed service memory after the runs: ${(await residentMb(children.feed))?.toFixed(0)} MB resident; gateway ${(await residentMb(children.gateway))?.toFixed(0)} MB`,
  );

  // Freshness through the real write path.
  const video = join(scratch, 'clip.mp4');
  await synthesizeClip({ path: video, durationSeconds: 2, width: 180, height: 320, withAudio: false, fps: 5 });
  const bytes = new Uint8Array(await readFile(video));
  const tag = randomBytes(3).toString('hex');
  const signUp = async (role, n) => {
    const handle = `f${tag}${role[0]}${n}`.slice(0, 15);
    const res = await api('/api/auth/signup', {
      method: 'POST',
      body: { email: `${handle}@example.com`, twitterHandle: handle, walletAddress: WALLET, role, password: 'a-good-password' },
    });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    return { id: (await res.json()).user.id, handle, cookie: /clipit\.sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')[0] };
  };
  const fan = await signUp('clipper', 'fan');
  const clippers = [];
  for (let n = 0; n < Math.ceil(TRIALS / 3); n += 1) clippers.push(await signUp('clipper', n)); // the daily limit is 3 videos each
  const adminToken = (await (await api('/api/admin/verify-password', { method: 'POST', body: { password: adminPassword } })).json()).token;
  const ids = [];
  for (let t = 0; t < TRIALS; t += 1) {
    const owner = clippers[Math.floor(t / 3)];
    const res = await api('/api/submissions', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: { name: `Fresh ${t}`, url: `https://x.com/${owner.handle}/status/${Date.now()}${t}`, walletAddress: '' },
    });
    if (res.status !== 201) throw new Error(`submission answered ${res.status}: ${await res.text()}`);
    const id = (await res.json()).id;
    const form = new FormData();
    form.append('video', new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
    form.append('submissionId', id);
    const up = await fetch(`${gatewayUrl}/api/submissions/upload-video`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: gatewayUrl },
      body: form,
    });
    if (up.status !== 200) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
    ids.push({ id, owner });
  }
  for (const { id, owner } of ids) {
    for (let tries = 0; ; tries += 1) {
      const list = await (await api('/api/submissions', { headers: { cookie: owner.cookie } })).json();
      if (list.find((s) => s.id === id)?.videoState === 'ready') break;
      if (tries > 600) throw new Error(`the video of ${id} was not processed within 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const feedPage = async () => (await (await fetch(`${gatewayUrl}/api/feed/clips?limit=10`)).json()).submissions;
  const until = async (check, label) => {
    const deadline = performance.now() + 10_000;
    for (;;) {
      if (await check()) return performance.now();
      if (performance.now() > deadline) throw new Error(`${label}: not seen within 10 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const added = [];
  const removed = [];
  const liked = [];
  for (const { id } of ids) {
    const approve = await api(`/api/admin/submissions/${id}/approve-and-add-to-feed`, {
      method: 'POST',
      body: {},
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (approve.status !== 200) throw new Error(`approve answered ${approve.status}: ${await approve.text()}`);
    const answered = performance.now();
    added.push((await until(async () => (await feedPage()).some((c) => c.id === id), 'the approved clip')) - answered);

    const like = await api(`/api/feed/clips/${id}/like`, { method: 'POST', headers: { cookie: fan.cookie } });
    if (like.status !== 200) throw new Error(`like answered ${like.status}: ${await like.text()}`);
    const likedAt = performance.now();
    liked.push((await until(async () => (await feedPage()).find((c) => c.id === id)?.likeCount === 1, 'the like')) - likedAt);

    const remove = await api(`/api/admin/submissions/${id}/remove-from-feed`, {
      method: 'POST',
      body: {},
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (remove.status !== 200) throw new Error(`remove answered ${remove.status}: ${await remove.text()}`);
    const removedAt = performance.now();
    removed.push((await until(async () => !(await feedPage()).some((c) => c.id === id), 'the removal')) - removedAt);
  }
  log(`\nfreshness: from the answer until GET /api/feed/clips shows it (polled every 2 ms)`);
  const p95Added = summary('approve-and-add-to-feed → in the feed', added);
  const p95Liked = summary('like → likeCount in the feed', liked);
  const p95Removed = summary('remove-from-feed → gone from the feed', removed);

  log('\nsummary');
  log(
    `  GET /api/feed/clips?limit=10   ${(feed.ratio * 100).toFixed(1)}% of bare (target ≥ 50%), p99 ${feed.p99} ms (target < 25 ms); without the read cache ${(feed.uncachedRatio * 100).toFixed(1)}%, p99 ${feed.uncachedP99} ms`,
  );
  log(
    `  GET /api/leaderboard/posts     ${(posts.ratio * 100).toFixed(1)}% of bare (target ≥ 50%), p99 ${posts.p99} ms (target < 25 ms); without the read cache ${(posts.uncachedRatio * 100).toFixed(1)}%, p99 ${posts.uncachedP99} ms`,
  );
  log(
    `  freshness p95: added ${p95Added.toFixed(1)} ms, like ${p95Liked.toFixed(1)} ms, removed ${p95Removed.toFixed(1)} ms (target ≤ 250 ms)`,
  );
}

await runBench(main, async () => {
  await group.stop();
  await backend?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});
