// `npm run bench:media`: what the video pipeline costs on this machine, through the real path.
//
// `npm run bench:media` first builds identity, submissions, the gateway and the media worker (tsc -b,
// incremental; this module imports the built libraries), then this script starts them as
// their own processes (services/<name>/dist/main.js) against the local Postgres, NATS JetStream and Redis,
// each isolated for the run (isolation.mjs: own databases, stream, Redis key prefix, storage folder; all
// removed at the end, however the run ends), signs a user up through the gateway and then measures:
//
// 1. Latency. A 40 s 1080x1920 H.264/AAC clip (synthesizeClip from @clipit/media) goes through the path a
//    browser takes: POST /api/submissions, POST /api/submissions/video-upload-url, PUT the file to the
//    upload URL, POST /api/submissions/finalize-video-upload. Timed: from sending the finalize request to
//    the `media.processed` event arriving on the run's JetStream stream (one media-worker process).
//    BENCH_MEDIA_RUNS times (default 3), median; one untimed warm-up video goes first. After each such
//    run, the very commands the worker runs (@clipit/media's probe, and posterArgs and transcodeArgs through
//    its runTool: ffprobe, the poster, the web MP4, ffprobe of the result) run bare on the same file; the
//    report gives both medians and pipeline / bare (no ratio when a bare run fails, takes no time or
//    makes no playable output: "baseline broken: …", exit 1; baseline.mjs).
// 2. Throughput. BENCH_MEDIA_VIDEOS (default 6) short clips (10 s 720x1280, one file uploaded as that many
//    videos) are uploaded, then finalized back to back; videos per minute from the first finalize request
//    to the last `media.processed`, with one media-worker process and then with two
//    (MEDIA_WORKER_CONCURRENCY=1 each; the second process is started next to the first). The table says how
//    many jobs each process ran. One ffmpeg encode already keeps about 1.6 of 2 cores busy, so on such a
//    machine a second process can add about a quarter at most.
//
// The user submits 1 + 3 + 2 x 6 videos in one UTC day, over the spec's 3 a day: the submissions process
// runs with DAILY_VIDEO_LIMIT=1000 instead (one user, not several, so every video takes the same path).
//
// A markdown table goes to stdout and the figures to artifacts/bench/media.json (artifacts/ is git-ignored).
// Any media.failed event, a timeout or a service that exits ends the run with a non-zero exit code.
// About 3 minutes on 2 cores (a minute more when the build is not up to date), most of it ffmpeg; other
// work on the machine slows ffmpeg and makes the figures noisy (the report notes a busy start).
//
//   BENCH_MEDIA_RUNS=3 BENCH_MEDIA_VIDEOS=6 BENCH_MEDIA_TIMEOUT_SECONDS=300 npm run bench:media
import { VIDEO_LIMITS } from '@clipit/contracts';
import * as media from '@clipit/media';
import { createMediaQueue } from '@clipit/media-queue';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BaselineBroken, runBench, refuseBaseline, timedProblems } from './baseline.mjs';
import { identityEnv, isolatedBackend, NATS_URL, REDIS_URL } from './isolation.mjs';
import { freePort, processGroup, waitReady } from './processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const RUNS = Number(env('BENCH_MEDIA_RUNS', '3'));
const VIDEOS = Number(env('BENCH_MEDIA_VIDEOS', '6'));
/** Longest wait for one video's event (latency) or one throughput batch's last event. */
const TIMEOUT_MS = Number(env('BENCH_MEDIA_TIMEOUT_SECONDS', '300')) * 1000;
const RESULTS_FILE = join(root, 'artifacts', 'bench', 'media.json');
const LATENCY_CLIP = { durationSeconds: 40, width: 1080, height: 1920, fps: 30, withAudio: true };
const THROUGHPUT_CLIP = { durationSeconds: 10, width: 720, height: 1280, fps: 30, withAudio: true };

const group = processGroup(root);
const log = (message) => process.stdout.write(`${message}\n`);
const startedAt = performance.now();
/** The machine's 1-minute load average when the bench started: other work skews every figure. */
const loadAtStart = loadavg()[0];

/** The isolated pieces, the scratch folder and the event watcher, once made (the finally block undoes them). */
const resources = { backend: undefined, workDir: undefined, events: undefined };

// Whatever must end the run at once, wherever it is waiting: a service exiting, Ctrl-C.
let stopping = false;
let abortRun;
const aborted = new Promise((_, reject) => (abortRun = reject));
aborted.catch(() => undefined);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => abortRun(new Error(`interrupted (${signal})`)));

function start(label, args, extraEnv) {
  const child = group.start(label, args, extraEnv);
  child.once('exit', (code, signal) => {
    if (!stopping) abortRun(new Error(`${label} exited during the run (${signal ?? `code ${code}`})`));
  });
  return child;
}

/** Resolves with `promise`, or rejects when the run is aborted or `timeoutMs` passes first. */
function within(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout, aborted]).finally(() => clearTimeout(timer));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Every media-worker event on the run's stream (an ordered JetStream consumer on
 * `<prefix>.media-worker.>`), with the time it arrived here. `wait(videoId)` answers the arrival time of
 * the video's media.processed, and rejects on its media.failed.
 */
async function watchMediaEvents(names) {
  const nc = await connect({ servers: NATS_URL, name: 'bench-media' });
  const consumer = await jetstream(nc).consumers.get(names.stream, { filter_subjects: `${names.subjectPrefix}.media-worker.>` });
  const messages = await consumer.consume();
  const seen = new Map();
  const waiters = new Map();
  const settle = (videoId) => {
    const event = seen.get(videoId);
    const waiter = waiters.get(videoId);
    if (!event || !waiter) return;
    waiters.delete(videoId);
    if (event.envelope.type === 'media.processed') waiter.resolve(event);
    else waiter.reject(new Error(`${event.envelope.type} for video ${videoId}: ${JSON.stringify(event.envelope.data)}`));
  };
  const reading = (async () => {
    for await (const msg of messages) {
      const at = performance.now();
      const envelope = msg.json();
      const videoId = envelope.data?.videoId;
      if (!videoId || seen.has(videoId)) continue;
      seen.set(videoId, { at, envelope });
      settle(videoId);
    }
  })();
  return {
    wait(videoId) {
      return new Promise((resolve, reject) => {
        waiters.set(videoId, { resolve, reject });
        settle(videoId);
      });
    },
    async close() {
      await messages.close();
      await reading.catch(() => undefined);
      await nc.close();
    },
  };
}

async function startPlatform(backend, scratchDir) {
  const [grpcPort, identityHttpPort, submissionsGrpcPort, submissionsHttpPort, gatewayPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const shared = { ...backend.env, LOG_LEVEL: 'warn' };
  const identity = start('identity', ['services/identity/dist/main.js'], {
    ...shared,
    ...identityEnv(backend, { grpcPort, httpPort: identityHttpPort }),
  });
  await within(waitReady(`http://127.0.0.1:${identityHttpPort}/health/ready`, 'identity', identity), 90_000, 'identity');
  const submissions = start('submissions', ['services/submissions/dist/main.js'], {
    ...shared,
    SUBMISSIONS_DATABASE_URL: backend.databaseUrls.submissions,
    SUBMISSIONS_GRPC_PORT: String(submissionsGrpcPort),
    SUBMISSIONS_HTTP_PORT: String(submissionsHttpPort),
    SUBMISSIONS_BIND_HOST: '127.0.0.1',
    IDENTITY_GRPC_URL: `127.0.0.1:${grpcPort}`,
    // One user submits every video of the bench (1 + RUNS + 2 x VIDEOS in a day): lift the daily limit of 3.
    DAILY_VIDEO_LIMIT: '1000',
  });
  await within(waitReady(`http://127.0.0.1:${submissionsHttpPort}/health/ready`, 'submissions', submissions), 90_000, 'submissions');
  const gateway = start('gateway', ['services/gateway/dist/main.js'], {
    ...shared,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    IDENTITY_GRPC_URL: `127.0.0.1:${grpcPort}`,
    SUBMISSIONS_GRPC_URL: `127.0.0.1:${submissionsGrpcPort}`,
  });
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await within(waitReady(`${gatewayUrl}/health/ready`, 'gateway', gateway), 90_000, 'gateway');

  let workers = 0;
  const startWorker = async () => {
    workers += 1;
    const port = await freePort();
    const label = `media-worker ${workers}`;
    const worker = start(label, ['services/media-worker/dist/main.js'], {
      ...shared,
      MEDIA_WORKER_HTTP_PORT: String(port),
      MEDIA_WORKER_BIND_HOST: '127.0.0.1',
      MEDIA_WORKER_CONCURRENCY: '1',
      MEDIA_WORKER_TMP_DIR: scratchDir,
    });
    await within(waitReady(`http://127.0.0.1:${port}/health/ready`, label, worker), 90_000, label);
  };
  await startWorker();
  return { gatewayUrl, startWorker };
}

/** The gateway's API as the signed-up user. */
async function signUp(gatewayUrl) {
  const handle = `bench_${randomBytes(3).toString('hex')}`;
  const call = async (path, init, expected) => {
    // Paths, or an absolute upload URL (presigned on S3 storage).
    const res = await within(fetch(new URL(path, gatewayUrl), init), 60_000, `${init.method} ${path}`);
    if (res.status !== expected) throw new Error(`${init.method} ${path} answered ${res.status}: ${await res.text()}`);
    return res;
  };
  // Signed-in writes carry our Origin, as the browser's do: the gateway refuses them without one (ADR 0004).
  const origin = new URL(gatewayUrl).origin;
  const json = (method, body, cookie) => ({
    method,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie, origin } : {}) },
    body: JSON.stringify(body),
  });
  const signup = await call(
    '/api/auth/signup',
    json('POST', {
      email: `${handle}@example.com`,
      twitterHandle: handle,
      walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      role: 'clipper',
      password: 'bench-password',
    }),
    201,
  );
  await signup.arrayBuffer();
  const cookie = /clipit\.sid=[^;]+/.exec(signup.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error('sign-up set no session cookie');

  let posts = 0;
  return {
    /** A submission with its video uploaded (not finalized yet): POST /api/submissions, upload URL, PUT. */
    async upload(clip) {
      posts += 1;
      // A distinct X status link per submission: a post is submitted once.
      const url = `https://x.com/clipit_bench/status/${Date.now()}${String(posts).padStart(4, '0')}`;
      const { id: submissionId } = await (
        await call('/api/submissions', json('POST', { name: `bench clip ${posts}`, url }, cookie), 201)
      ).json();
      const { uploadUrl, videoId } = await (
        await call('/api/submissions/video-upload-url', json('POST', { submissionId }, cookie), 200)
      ).json();
      // On filesystem storage a path on the gateway (its own upload route).
      const put = await call(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: clip }, 200);
      await put.arrayBuffer();
      return { submissionId, videoId };
    },
    /** POST /api/submissions/finalize-video-upload: answers the time the request was sent. */
    async finalize({ submissionId, videoId }) {
      const sentAt = performance.now();
      const res = await call('/api/submissions/finalize-video-upload', json('POST', { submissionId, videoId }, cookie), 200);
      const body = await res.json();
      if (body.videoState !== 'processing') throw new Error(`finalize left video ${videoId} ${body.videoState}, not processing`);
      return sentAt;
    },
    /** GET /api/submissions: the user's submissions as the API shows them. */
    async mine() {
      return (await call('/api/submissions', { method: 'GET', headers: { cookie } }, 200)).json();
    },
  };
}

/** The worker's ffmpeg work on one file, run bare: the same argument builders and runner, nothing around them. */
async function bareRun(media, maxLongSide, source, outDir) {
  const poster = join(outDir, 'poster.jpg');
  const video = join(outDir, 'video.mp4');
  // The worker's limits (src/app.ts): ffprobe 60 s, ffmpeg MEDIA_WORKER_TRANSCODE_TIMEOUT_SECONDS (600).
  const probeOpts = { timeoutMs: 60_000 };
  const t0 = performance.now();
  const probed = await media.probe(source, probeOpts);
  const t1 = performance.now();
  await media.runTool('ffmpeg', media.posterArgs(source, poster, media.posterTime(probed.durationSeconds), maxLongSide), {
    timeoutMs: 600_000,
  });
  const t2 = performance.now();
  await media.runTool('ffmpeg', media.transcodeArgs(source, video, maxLongSide), { timeoutMs: 600_000 });
  const t3 = performance.now();
  // transcodeForWeb measures its output too.
  const output = await media.probe(video, probeOpts);
  const t4 = performance.now();
  await rm(outDir, { recursive: true, force: true });
  const produced = output.width > 0 && output.height > 0 && output.durationSeconds > 0;
  return {
    totalMs: t4 - t0,
    probeMs: t1 - t0,
    posterMs: t2 - t1,
    transcodeMs: t3 - t2,
    probeOutputMs: t4 - t3,
    output: `${output.width}x${output.height}`,
    produced,
  };
}

/**
 * How many of the jobs each worker process ran, most first: BullMQ keeps completed jobs, and a job's
 * `processedBy` is its worker's name (`<host>:<pid>`, libs/worker-kit/src/queue-worker.ts).
 */
async function jobsPerWorker(redisKeyPrefix, videoIds) {
  const queue = createMediaQueue({ redisUrl: REDIS_URL, prefix: redisKeyPrefix });
  try {
    const counts = new Map();
    for (const videoId of videoIds) {
      const by = (await queue.getJob(videoId))?.processedBy ?? 'unknown';
      counts.set(by, (counts.get(by) ?? 0) + 1);
    }
    return [...counts.values()].sort((x, y) => y - x);
  } finally {
    await queue.close();
  }
}

async function throughput(api, events, clip, workers, jobsByWorker) {
  const uploads = [];
  for (let i = 0; i < VIDEOS; i += 1) uploads.push(await api.upload(clip));
  const done = [];
  let firstSentAt;
  for (const upload of uploads) {
    const sentAt = await api.finalize(upload);
    firstSentAt ??= sentAt;
    done.push(events.wait(upload.videoId).then((event) => ({ sentAt, at: event.at })));
  }
  const results = await within(Promise.all(done), TIMEOUT_MS, `${VIDEOS} media.processed events with ${workers} worker(s)`);
  const wallMs = Math.max(...results.map((r) => r.at)) - firstSentAt;
  const perVideoMs = results.map((r) => r.at - r.sentAt);
  const jobsPerProcess = await jobsByWorker(uploads.map((u) => u.videoId));
  if (jobsPerProcess.length !== workers)
    throw new Error(
      `the ${VIDEOS} jobs ran on ${jobsPerProcess.length} worker process(es) (${jobsPerProcess.join(' + ')}), not ${workers}`,
    );
  return {
    workers,
    videos: VIDEOS,
    wallMs,
    videosPerMinute: VIDEOS / (wallMs / 60_000),
    medianPerVideoMs: median(perVideoMs),
    maxPerVideoMs: Math.max(...perVideoMs),
    jobsPerProcess,
  };
}

async function main() {
  if (!(RUNS >= 1 && VIDEOS >= 1)) throw new Error('BENCH_MEDIA_RUNS and BENCH_MEDIA_VIDEOS must be at least 1');
  const ffmpegVersion = (await media.runTool('ffmpeg', ['-hide_banner', '-version'], { timeoutMs: 10_000 })).stdout
    .split('\n')[0]
    .replace(/ Copyright.*/, '');

  resources.workDir = await mkdtemp(join(tmpdir(), 'clipit-bench-media-'));
  const scratchDir = join(resources.workDir, 'worker-scratch');
  await mkdir(scratchDir);
  const clipPath = (spec) => join(resources.workDir, `clip-${spec.durationSeconds}s-${spec.width}x${spec.height}.mp4`);
  const synthMs = {};
  for (const spec of [LATENCY_CLIP, THROUGHPUT_CLIP]) {
    log(`synthesizing a ${spec.durationSeconds} s ${spec.width}x${spec.height} clip (${spec.fps} fps, H.264/AAC) ...`);
    const t0 = performance.now();
    await within(media.synthesizeClip({ ...spec, path: clipPath(spec) }), 600_000, 'synthesizeClip');
    synthMs[`${spec.width}x${spec.height}`] = performance.now() - t0;
  }
  const longClip = await readFile(clipPath(LATENCY_CLIP));
  const shortClip = await readFile(clipPath(THROUGHPUT_CLIP));

  resources.backend = await isolatedBackend('benchmedia', { otherDatabases: ['submissions'] });
  log('starting identity, submissions, gateway and one media-worker ...');
  const { gatewayUrl, startWorker } = await startPlatform(resources.backend, scratchDir);
  resources.events = await watchMediaEvents(resources.backend.names);
  const events = resources.events;
  const api = await signUp(gatewayUrl);

  // 1. Latency, through the platform.
  log('warm-up: one short video through the pipeline (not timed) ...');
  const warm = await api.upload(shortClip);
  await api.finalize(warm);
  await within(events.wait(warm.videoId), TIMEOUT_MS, 'the warm-up video');
  // Pipeline and bare runs alternate, so a change in the machine's load (other work, a noisy neighbour)
  // weighs on both alike. The worker is idle during a bare run.
  const pipelineMs = [];
  const bare = [];
  for (let i = 0; i < RUNS; i += 1) {
    const upload = await api.upload(longClip);
    const sentAt = await api.finalize(upload);
    const event = await within(events.wait(upload.videoId), TIMEOUT_MS, `media.processed of latency run ${i + 1}`);
    pipelineMs.push(event.at - sentAt);
    const processed = event.envelope.data;
    if (
      processed.width !== LATENCY_CLIP.width ||
      processed.height !== LATENCY_CLIP.height ||
      Math.round(processed.durationSeconds) !== LATENCY_CLIP.durationSeconds
    ) {
      throw new Error(
        `media.processed measured ${processed.width}x${processed.height}, ${processed.durationSeconds} s; expected the 40 s 1080x1920 clip`,
      );
    }
    // The same ffmpeg work, bare, on the same file: the ratio's baseline, refused when it failed, took
    // no time or made no playable output.
    const bareDone = bareRun(
      media,
      VIDEO_LIMITS.maxLongSide,
      clipPath(LATENCY_CLIP),
      await mkdtemp(join(resources.workDir, 'bare-')),
    ).catch((err) => {
      throw new BaselineBroken(`bare ffmpeg run ${i + 1} failed: ${err.message}`);
    });
    const run = await within(bareDone, 900_000, 'the bare ffmpeg run');
    refuseBaseline(`bare ffmpeg run ${i + 1}`, timedProblems(run.totalMs, { produced: run.produced }));
    bare.push(run);
    log(`  run ${i + 1}: pipeline ${seconds(event.at - sentAt)}, bare ${seconds(run.totalMs)} (web MP4 ${run.output})`);
  }

  // 2. Throughput with one worker, then two.
  log(`throughput: ${VIDEOS} videos, 1 media-worker ...`);
  const jobsByWorker = (videoIds) => jobsPerWorker(resources.backend.env.REDIS_KEY_PREFIX, videoIds);
  const one = await throughput(api, events, shortClip, 1, jobsByWorker);
  log(`  ${one.videosPerMinute.toFixed(2)} videos/min`);
  await startWorker();
  log(`throughput: ${VIDEOS} videos, 2 media-workers ...`);
  const two = await throughput(api, events, shortClip, 2, jobsByWorker);
  log(`  ${two.videosPerMinute.toFixed(2)} videos/min`);

  // The submissions service applied every media.processed (its consumer runs behind the event).
  const expected = 1 + RUNS + 2 * VIDEOS;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mine = await api.mine();
    const ready = mine.filter((s) => s.videoState === 'ready').length;
    if (mine.length === expected && ready === expected) break;
    if (Date.now() > deadline)
      throw new Error(`submissions shows ${ready} of ${expected} videos ready (of ${mine.length} submissions) 30 s after the last event`);
    await within(new Promise((r) => setTimeout(r, 250)), 5000, 'a pause');
  }

  const pipelineMedian = median(pipelineMs);
  const bareMedian = median(bare.map((b) => b.totalMs));
  const step = (key) => median(bare.map((b) => b[key]));
  const ratio = pipelineMedian / bareMedian;
  const totalMs = performance.now() - startedAt;

  const cell = (ms) => seconds(ms).padStart(9);
  const runCells = (values) => values.map(cell).join(' | ');
  const runHeads = pipelineMs.map((_, i) => `run ${i + 1}`.padStart(9)).join(' | ');
  log(`\n## Media pipeline (${cpus().length} cores, ${ffmpegVersion})\n`);
  log(
    `Latency: ${LATENCY_CLIP.durationSeconds} s ${LATENCY_CLIP.width}x${LATENCY_CLIP.height} ${LATENCY_CLIP.fps} fps H.264/AAC clip (${(longClip.length / 1048576).toFixed(1)} MB), median of ${RUNS}\n`,
  );
  log(`| path | ${runHeads} | median |`);
  log(`|---|${pipelineMs.map(() => '---:|').join('')}---:|`);
  log(`| pipeline: finalize → media.processed on the stream | ${runCells(pipelineMs)} | ${cell(pipelineMedian)} |`);
  log(`| bare: ffprobe + poster + web MP4 + ffprobe | ${runCells(bare.map((b) => b.totalMs))} | ${cell(bareMedian)} |`);
  log(`\npipeline / bare = ${ratio.toFixed(3)} (overhead ${seconds(pipelineMedian - bareMedian)})`);
  log(
    `bare, median per step: ffprobe ${seconds(step('probeMs'))}, poster ${seconds(step('posterMs'))}, web MP4 ${seconds(step('transcodeMs'))}, ffprobe of the output ${seconds(step('probeOutputMs'))}`,
  );
  log(
    `\nThroughput: ${VIDEOS} videos of ${THROUGHPUT_CLIP.durationSeconds} s ${THROUGHPUT_CLIP.width}x${THROUGHPUT_CLIP.height} finalized back to back, MEDIA_WORKER_CONCURRENCY=1\n`,
  );
  log(
    '| media-worker processes | first finalize → last media.processed | videos/min | finalize → processed, median (max) | jobs per process |',
  );
  log('|---:|---:|---:|---:|---:|');
  for (const t of [one, two]) {
    log(
      `| ${t.workers} | ${seconds(t.wallMs)} | ${t.videosPerMinute.toFixed(2)} | ${seconds(t.medianPerVideoMs)} (${seconds(t.maxPerVideoMs)}) | ${t.jobsPerProcess.join(' + ')} |`,
    );
  }
  log(`\n2 workers / 1 worker = ${(two.videosPerMinute / one.videosPerMinute).toFixed(2)}x`);

  const results = {
    bench: 'media',
    date: new Date().toISOString(),
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model,
      node: process.version,
      ffmpeg: ffmpegVersion,
      loadAverage1mAtStart: loadAtStart,
    },
    clips: {
      latency: { ...LATENCY_CLIP, bytes: longClip.length },
      throughput: { ...THROUGHPUT_CLIP, bytes: shortClip.length },
      synthesizeMs: synthMs,
    },
    latency: {
      runs: RUNS,
      pipelineMs,
      pipelineMedianMs: pipelineMedian,
      bareMs: bare.map((b) => b.totalMs),
      bareMedianMs: bareMedian,
      bareMedianStepsMs: {
        probe: step('probeMs'),
        poster: step('posterMs'),
        transcode: step('transcodeMs'),
        probeOutput: step('probeOutputMs'),
      },
      ratio,
    },
    throughput: [one, two],
    throughputTwoWorkersOverOne: two.videosPerMinute / one.videosPerMinute,
    totalRuntimeMs: totalMs,
  };
  await mkdir(join(root, 'artifacts', 'bench'), { recursive: true });
  // Milliseconds to the microsecond and ratios to 3 decimals are plenty.
  const rounded = (_key, value) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value);
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, rounded, 2)}\n`);
  if (loadAtStart > cpus().length / 2) {
    log(
      `\nnote: the machine was busy when the bench started (1-minute load average ${loadAtStart.toFixed(1)} on ${cpus().length} cores); ` +
        'ffmpeg shares the cores with that work, so these figures are lower and noisier than on a quiet machine',
    );
  }
  log(`\nfigures written to ${RESULTS_FILE.slice(root.length)}; whole bench ${seconds(totalMs)} (build and clip synthesis included)`);
}

await runBench(Promise.race([main(), aborted]), async () => {
  stopping = true;
  await resources.events?.close().catch((err) => console.error(`cleanup: ${err.message}`));
  await group.stop();
  await resources.backend?.cleanup();
  if (resources.workDir) await rm(resources.workDir, { recursive: true, force: true });
});
