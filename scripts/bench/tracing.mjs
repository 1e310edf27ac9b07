// `npm run bench:tracing`: what tracing costs the platform (ADR 0054, section 12). The services run as processes
// with the launcher's NODE_OPTIONS (processes.mjs: the tracing preload first, then the memory settings), in three
// modes, all with TRACE_REMOTE_PARENT=ratio:
//   - off: no collector (OTEL_EXPORTER_OTLP_ENDPOINT empty): the preload loads nothing;
//   - 1 %: OTEL_TRACES_SAMPLER=parentbased_traceidratio, OTEL_TRACES_SAMPLER_ARG=0.01;
//   - 100 %: the same at 1.
// On, every process exports over OTLP/HTTP (protobuf, the default) to a sink in this process that reads each
// request and answers 200: the export's cost is counted, a collector's is not. The bench sends no traceparent, so
// the gateway decides for each request, as in production. The preload decides at start, so each mode has
// processes of its own, on a backend of its own (databases, stream, Redis key prefix, sink). The bench runs
// BENCH_ROUNDS rounds (3); each round starts every mode's processes afresh (one start of a process can cost a
// tenth more per request than the next) and gives each load to the modes in turn, in an order that rotates from
// round to round, so that the modes of a round are measured in the same minutes: on a shared two-core machine
// the same process's figures move by a fifth from one minute to the next, which a mode measured minutes after
// another would pay for. Each figure is the median of its rounds; each share of off, the median of the rounds'
// shares (a round's figure divided by off's in the same round).
//
// What each mode's processes (identity, submissions, social, feed, developer, gateway) are measured on:
//   - a cached feed page: GET /api/feed/clips?limit=10 as a visitor (the gateway alone answers it);
//   - a read the gateway asks an owner for on each request: GET /api/v1/submissions with an API key (gateway →
//     submissions over gRPC → pg; developer is asked about the key at most twice a second, API_KEY_CACHE_TTL_MS);
//   each through autocannon (measure.mjs: a 2 s warm-up, then BENCH_DURATION s, default 5, at BENCH_CONNECTIONS,
//   default 50): req/s, p50 and p99 (to the microsecond, from each answer's own time), and the CPU time all the
//   processes spent per request (/proc), which the machine's other load moves far less than req/s, with each
//   process's share of it (where a mode's cost is);
//   - a write whose event another service applies: BENCH_EVENT_TRIALS (100, after 10 not counted) likes and
//     unlikes in turn of the page's clips, one at a time, in turns of 10 per mode, each timed from its answer
//     (social's transaction, the event in its outbox, committed) until the visitor's feed page shows the clip's new like count (social's
//     relay → NATS → feed's consumer → the feed's notice drops the gateway's cached page), polled every 2 ms:
//     p50, p99;
//   - each process's resident memory (RSS) after that load.
// It exits non-zero when the gate fails: at 1 %, each read's req/s under 90 % of off's or its p99 over 110 % of
// off's, or the event latency's p50 over 110 % of off's. 100 % is reported, not gated. The off runs are the
// baseline (baseline.mjs refuses one that errored, answered other than 2xx or ran under its floors), and a run
// whose modes did not take (a span exported while off, none at 100 %) is refused too.
//
//   npm run bench:tracing      (part of npm run bench; builds the services first, tsc -b)
//   BENCH_ROUNDS=3 BENCH_DURATION=5 BENCH_CONNECTIONS=50 BENCH_EVENT_TRIALS=100 npm run bench:tracing
//
// Every mode runs on databases, a stream, a Redis key prefix and a storage folder of its own (isolation.mjs),
// removed at the end; the figures also go to artifacts/bench/tracing.json (git-ignored).
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { refuseBaseline, runBench, timedProblems } from './baseline.mjs';
import { isolatedBackend } from './isolation.mjs';
import { envNumber, log, measure, percentile, rotated } from './measure.mjs';
import { cpuMs, processGroup } from './processes.mjs';
import { untilConsumersCaughtUp } from './replay.mjs';
import { gatewayApi, residentMb, SAME_ENCODING, startServices } from './services.mjs';
import { WALLET } from './seed.mjs';
import { publishApprovedClips, startOtlpSink, tracingEnv } from './tracing-modes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const DURATION = envNumber('BENCH_DURATION', 5);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50);
const TRIALS = envNumber('BENCH_EVENT_TRIALS', 100);
const WARM_TRIALS = 10;
/** The timed likes of a round go in turns of this many per mode. */
const EVENT_TURN = 10;
/** The pause with no load after a round's processes start. */
const SETTLE_MS = 5_000;
const PAGE = '/api/feed/clips?limit=10';
const V1_READ = '/api/v1/submissions?limit=10';
const CLIPS = 10;
const OWN_SUBMISSIONS = 3;
const EVENT_TIMEOUT_MS = 10_000;
const RESULTS_FILE = join(root, 'artifacts', 'bench', 'tracing.json');
const NAMES = ['identity', 'submissions', 'social', 'feed', 'developer'];
const PROCESSES = [...NAMES, 'gateway'];
/**
 * What the off runs must reach to be divided by: a read through a real gateway, not a bare server, on a busy
 * two-core machine, so floors well under what it does (thousands of cached pages a second, hundreds of v1 reads)
 * and over what a broken run shows.
 */
const BASELINE_FLOORS = { minRps: 100, maxP99Ms: 1000 };
const GATE = { minRpsShare: 0.9, maxP99Share: 1.1, maxEventP50Share: 1.1 };

/** The modes, in each round's order. `ratio` undefined: no collector. */
const MODES = [
  { name: 'off', ratio: undefined },
  { name: '1 %', ratio: 0.01 },
  { name: '100 %', ratio: 1 },
];

/** Each mode's stack: a backend of its own (databases, stream, key prefix), a sink of its own, its processes. */
const stacks = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Starts `stack`'s processes in its mode (a process group of their own) and waits until its stream is applied. */
async function startStack(stack) {
  stack.group = processGroup(root);
  Object.assign(
    stack,
    await startServices(stack.group, stack.backend, NAMES, {
      env: tracingEnv(stack.mode.ratio, stack.sink.url),
      serviceEnv: {
        // One key reads at the load's rate: its courtesy limit (600 a minute) would answer 429.
        gateway: { API_KEY_LIMIT_PER_WINDOW: '100000000' },
      },
    }),
  );
  await untilConsumersCaughtUp(stack.backend, stack.backend.names);
}

/** The CPU time each of `stack`'s processes has spent, ms. */
const cpuEach = (stack) => Object.fromEntries(PROCESSES.map((p) => [p, cpuMs(stack.children[p]) ?? NaN]));
/** The CPU time all of `stack`'s processes have spent, ms. */
const stackCpuMs = (stack) => Object.values(cpuEach(stack)).reduce((t, ms) => t + ms, 0);
/** A printed line's label: the mode, what it measures, the round. */
const label = (stack, number, what) => `${stack.mode.name.padEnd(5)} ${what} (${number}/${ROUNDS})`;

/** Stops `stack`'s processes (each sends its last spans on the way out) and answers what its sink got since `before`. */
async function stopStack(stack, before) {
  await stack.group.stop();
  stack.group = undefined;
  const after = stack.sink.read();
  return { requests: after.requests - before.requests, bytes: after.bytes - before.bytes };
}

/**
 * What every mode reads, made once through the real routes: a clipper with OWN_SUBMISSIONS submissions and an
 * API key to read them, a fan whose likes are timed, and CLIPS clips in the feed (published as submissions
 * publishes `submission.approved`, owned by the clipper) that social takes likes of.
 */
async function prepare(backend, gatewayUrl) {
  const api = gatewayApi(gatewayUrl);
  const tag = randomBytes(3).toString('hex');
  const signUp = async (who) => {
    const handle = `tr${tag}${who}`;
    const res = await api('/api/auth/signup', {
      method: 'POST',
      body: { email: `${handle}@example.com`, twitterHandle: handle, walletAddress: WALLET, role: 'clipper', password: 'a-good-password' },
    });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    const cookie = /clipit\.sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error('sign-up set no session cookie');
    return { id: (await res.json()).user.id, handle, cookie };
  };
  const clipper = await signUp('c');
  const fan = await signUp('f');
  for (let n = 0; n < OWN_SUBMISSIONS; n += 1) {
    const res = await api('/api/submissions', {
      method: 'POST',
      headers: { cookie: clipper.cookie },
      body: { name: `Traced ${n}`, url: `https://x.com/${clipper.handle}/status/${Date.now()}${n}`, walletAddress: '' },
    });
    if (res.status !== 201) throw new Error(`submission answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
  const made = await api('/api/keys', {
    method: 'POST',
    headers: { cookie: clipper.cookie },
    body: { name: 'bench', scopes: ['submissions:read'] },
  });
  if (made.status !== 201) throw new Error(`POST /api/keys answered ${made.status}: ${await made.text()}`);
  const key = (await made.json()).key;

  const clips = await publishApprovedClips(backend, { id: clipper.id, handle: clipper.handle }, CLIPS);
  // Social answers 409 to a like until it has heard of the clip; each is liked once to know, then taken back.
  for (const id of clips) {
    for (let tries = 0; ; tries += 1) {
      const res = await api(`/api/feed/clips/${id}/like`, { method: 'POST', headers: { cookie: fan.cookie } });
      const text = await res.text();
      if (res.status === 200) break;
      if ((res.status !== 404 && res.status !== 409) || tries > 300) throw new Error(`like of a new clip answered ${res.status}: ${text}`);
      await sleep(100);
    }
    const back = await api(`/api/feed/clips/${id}/like`, { method: 'DELETE', headers: { cookie: fan.cookie } });
    if (back.status !== 200) throw new Error(`unlike answered ${back.status}: ${await back.text()}`);
    await back.arrayBuffer();
  }
  // Social's relay and the feed's consumer apply the last unlikes after their answers.
  const since = performance.now();
  for (;;) {
    const page = await feedPage(gatewayUrl);
    if (clips.every((id) => page.some((c) => c.id === id && c.likeCount === 0))) break;
    if (performance.now() - since > EVENT_TIMEOUT_MS)
      throw new Error(`the feed page does not show the ${CLIPS} clips unliked: ${JSON.stringify(page.map((c) => [c.id, c.likeCount]))}`);
    await sleep(50);
  }
  const v1 = await fetch(`${gatewayUrl}${V1_READ}`, { headers: { authorization: `Bearer ${key}` } });
  const items = v1.status === 200 ? (await v1.json()).items : [];
  if (items.length !== OWN_SUBMISSIONS) throw new Error(`${V1_READ} answered ${v1.status} with ${items.length} submissions`);
  return { key, fan, clips };
}

async function feedPage(gatewayUrl) {
  const res = await fetch(`${gatewayUrl}${PAGE}`);
  if (res.status !== 200) throw new Error(`${PAGE} answered ${res.status}: ${await res.text()}`);
  return (await res.json()).submissions;
}

/**
 * Likes and unlikes in turn on `stack` (its `liked` holds each clip's state, carried from round to round), one at
 * a time: each timed from the write's answer until the visitor's page shows the clip's new count. Answers the
 * times, in ms.
 */
async function eventLatencies({ gatewayUrl, fixtures: { fan, clips }, liked }, count) {
  const api = gatewayApi(gatewayUrl);
  const times = [];
  for (let t = 0; t < count; t += 1) {
    const id = clips[t % clips.length];
    const like = !liked.get(id);
    const res = await api(`/api/feed/clips/${id}/like`, { method: like ? 'POST' : 'DELETE', headers: { cookie: fan.cookie } });
    if (res.status !== 200) throw new Error(`${like ? 'like' : 'unlike'} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    const answered = performance.now();
    liked.set(id, like);
    const want = like ? 1 : 0;
    for (;;) {
      if ((await feedPage(gatewayUrl)).find((c) => c.id === id)?.likeCount === want) break;
      if (performance.now() - answered > EVENT_TIMEOUT_MS)
        throw new Error(`the ${like ? 'like' : 'unlike'} of ${id} did not reach the feed page within ${EVENT_TIMEOUT_MS / 1000} s`);
      await sleep(2);
    }
    times.push(performance.now() - answered);
  }
  return times;
}

/**
 * One read of `stack` (a measure, warm-up first), with the CPU time every process spent per measured request
 * (/proc), which the machine's other load moves far less than req/s, and each process's share of it (where a
 * mode's cost is). The off runs are what the others are divided by: refused below the floors (and over any
 * answer not 2xx).
 */
async function measureRead(stack, round, what, load) {
  let cpuBefore = {};
  const result = await measure(label(stack, round, what), load, {
    connections: CONNECTIONS,
    duration: DURATION,
    warmConnections: 10,
    labelWidth: 36,
    baseline: stack.mode.ratio === undefined ? BASELINE_FLOORS : undefined,
    // p50 and p99 to the microsecond: a cached page's p99 is about 2 ms, which whole milliseconds cannot hold to 110 %.
    fineLatency: true,
    afterWarmUp: () => void (cpuBefore = cpuEach(stack)),
  });
  const cpuAfter = cpuEach(stack);
  const cpuBy = Object.fromEntries(PROCESSES.map((p) => [p, ((cpuAfter[p] - cpuBefore[p]) * 1000) / result.requests.total]));
  const cpuUs = PROCESSES.reduce((t, p) => t + cpuBy[p], 0);
  log(`${''.padEnd(36)} CPU/req ${PROCESSES.map((p) => `${p} ${cpuBy[p].toFixed(0)}`).join(', ')} µs`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs, cpuBy };
}

/**
 * One round: every mode's processes started afresh, then each load given to the modes in turn (the round's
 * order), so that a mode is measured in the same minute as the others and the machine's drift falls on all of
 * them alike. The timed likes go in turns of EVENT_TURN likes per mode. Answers each mode's figures.
 */
async function round(number) {
  const order = rotated(stacks, number);
  const before = new Map();
  for (const stack of order) {
    await startStack(stack);
    if (stack.fixtures === undefined) {
      stack.fixtures = await prepare(stack.backend, stack.gatewayUrl);
      stack.liked = new Map(stack.fixtures.clips.map((id) => [id, false]));
    }
    before.set(stack, stack.sink.read());
  }
  // A pause with no load: what the started processes still do (their first compilations, the relays' polls) ends
  // before the first measure, and each stack's CPU meanwhile says what an idle mode takes from the measured one.
  const idleFrom = new Map(order.map((stack) => [stack, stackCpuMs(stack)]));
  await sleep(SETTLE_MS);
  log(
    `round ${number}: idle CPU over ${SETTLE_MS / 1000} s: ${order.map((stack) => `${stack.mode.name} ${((stackCpuMs(stack) - idleFrom.get(stack)) / (SETTLE_MS / 1000)).toFixed(0)} ms/s`).join(', ')}`,
  );
  const runs = new Map(order.map((stack) => [stack, {}]));
  for (const stack of order)
    runs.get(stack).page = await measureRead(stack, number, 'cached feed page', {
      url: `${stack.gatewayUrl}${PAGE}`,
      headers: SAME_ENCODING,
    });
  for (const stack of order)
    runs.get(stack).v1 = await measureRead(stack, number, 'v1 read with a key', {
      url: `${stack.gatewayUrl}${V1_READ}`,
      headers: { ...SAME_ENCODING, authorization: `Bearer ${stack.fixtures.key}` },
    });
  const times = new Map(order.map((stack) => [stack, []]));
  for (const stack of order) await eventLatencies(stack, WARM_TRIALS);
  for (let done = 0; done < TRIALS; done += EVENT_TURN)
    for (const stack of order) times.get(stack).push(...(await eventLatencies(stack, Math.min(EVENT_TURN, TRIALS - done))));
  for (const stack of order) {
    const sorted = times.get(stack).sort((a, b) => a - b);
    const event = { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), trials: sorted.length };
    const line = label(stack, number, 'like → feed page');
    if (stack.mode.ratio === undefined) refuseBaseline(line, timedProblems(event.p50, { produced: sorted.length === TRIALS }));
    log(`${line.padEnd(36)} p50 ${event.p50.toFixed(1)} ms, p99 ${event.p99.toFixed(1)} ms   ${sorted.length} trials`);
    const rss = {};
    for (const name of PROCESSES) rss[name] = await residentMb(stack.children[name]);
    Object.assign(runs.get(stack), { event, rss });
  }
  for (const stack of order) {
    const run = runs.get(stack);
    run.exported = await stopStack(stack, before.get(stack));
    log(
      `${stack.mode.name.padEnd(5)} RSS ${PROCESSES.map((p) => `${p} ${run.rss[p]?.toFixed(0)}`).join(', ')} MB; exported ${run.exported.requests} requests, ${(run.exported.bytes / 1024).toFixed(0)} KB`,
    );
  }
  return runs;
}

/** A read's figures over its rounds: the median of each, the CPU per request of each process too. */
function readFigures(reads) {
  const m = (pick) => median(reads.map(pick));
  return {
    rps: m((r) => r.rps),
    p50: m((r) => r.p50),
    p99: m((r) => r.p99),
    cpuUs: m((r) => r.cpuUs),
    cpuBy: Object.fromEntries(PROCESSES.map((p) => [p, m((r) => r.cpuBy[p])])),
  };
}

const fmtMs = (v) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const pct = (v) => `${(v * 100).toFixed(1)} %`;

async function main() {
  const started = performance.now();
  const loadAtStart = loadavg()[0];
  log(
    `# bench:tracing: ${ROUNDS} rounds of off, 1 %, 100 %; ${DURATION} s per read at ${CONNECTIONS} connections, ${TRIALS} timed likes; ${cpus().length} cores, load ${loadAtStart.toFixed(2)} at start`,
  );
  for (const [i, mode] of MODES.entries())
    stacks.push({
      mode,
      backend: await isolatedBackend(`benchtracing${i}`, { otherDatabases: ['submissions', 'social', 'feed', 'developer'] }),
      sink: await startOtlpSink(),
    });

  const runs = Object.fromEntries(MODES.map((m) => [m.name, []]));
  for (let number = 1; number <= ROUNDS; number += 1) for (const [stack, run] of await round(number)) runs[stack.mode.name].push(run);

  const off = runs.off;
  const refused = [
    off.some((r) => r.exported.requests > 0) && `the off runs exported ${off.reduce((n, r) => n + r.exported.requests, 0)} requests`,
    runs['100 %'].some((r) => r.exported.requests === 0) && 'a run at 100 % exported nothing (the preload did not start tracing)',
  ].filter(Boolean);
  if (refused.length > 0) throw new Error(`modes not as set: ${refused.join('; ')}`);

  // Each figure: the median of its rounds.
  const figures = Object.fromEntries(
    MODES.map(({ name }) => {
      const rs = runs[name];
      const m = (pick) => median(rs.map(pick));
      return [
        name,
        {
          page: readFigures(rs.map((r) => r.page)),
          v1: readFigures(rs.map((r) => r.v1)),
          event: { p50: m((r) => r.event.p50), p99: m((r) => r.event.p99) },
          rss: Object.fromEntries(PROCESSES.map((p) => [p, m((r) => r.rss[p])])),
          exported: { requests: m((r) => r.exported.requests), bytes: m((r) => r.exported.bytes) },
        },
      ];
    }),
  );

  log(
    `\nMedians of ${ROUNDS} rounds; ${CONNECTIONS} connections, ${DURATION} s per read; CPU/req: the CPU time of every process per request; event: like/unlike answered → the visitor's page shows it.\n`,
  );
  log('| mode | feed page req/s | p50 | p99 | CPU/req | v1 read req/s | p50 | p99 | CPU/req | event p50 | event p99 | exported |');
  log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { name } of MODES) {
    const f = figures[name];
    log(
      `| ${name} | ${f.page.rps.toFixed(0)} | ${fmtMs(f.page.p50)} | ${fmtMs(f.page.p99)} | ${f.page.cpuUs.toFixed(0)} µs | ${f.v1.rps.toFixed(0)} | ${fmtMs(f.v1.p50)} | ${fmtMs(f.v1.p99)} | ${f.v1.cpuUs.toFixed(0)} µs | ${fmtMs(f.event.p50)} | ${fmtMs(f.event.p99)} | ${f.exported.requests} requests, ${(f.exported.bytes / 1024).toFixed(0)} KB |`,
    );
  }
  log('');
  log(`| CPU/req, median | ${PROCESSES.join(' | ')} |`);
  log(`|---|${PROCESSES.map(() => '---|').join('')}`);
  for (const read of ['page', 'v1'])
    for (const { name } of MODES) {
      const by = figures[name][read].cpuBy;
      log(`| ${read === 'page' ? 'feed page' : 'v1 read'}, ${name} | ${PROCESSES.map((p) => `${by[p].toFixed(0)} µs`).join(' | ')} |`);
    }
  log('');
  log(`| mode | ${PROCESSES.join(' | ')} | sum |`);
  log(`|---|${PROCESSES.map(() => '---|').join('')}---|`);
  for (const { name } of MODES) {
    const rss = figures[name].rss;
    const sum = PROCESSES.reduce((t, p) => t + rss[p], 0);
    log(`| ${name} RSS | ${PROCESSES.map((p) => `${rss[p].toFixed(0)} MB`).join(' | ')} | ${sum.toFixed(0)} MB |`);
  }

  // The gate, at 1 % against off; 100 % beside it, not gated. Each share is the median over the rounds of that
  // round's figure divided by off's in the same round: the modes of a round ran in the same minutes.
  const checks = (name) => {
    const share = (pick) => median(runs[name].map((r, i) => pick(r) / pick(off[i])));
    return [
      {
        what: 'feed page req/s',
        share: share((r) => r.page.rps),
        ok: (s) => s >= GATE.minRpsShare,
        target: `≥ ${pct(GATE.minRpsShare)}`,
      },
      { what: 'feed page p99', share: share((r) => r.page.p99), ok: (s) => s <= GATE.maxP99Share, target: `≤ ${pct(GATE.maxP99Share)}` },
      { what: 'v1 read req/s', share: share((r) => r.v1.rps), ok: (s) => s >= GATE.minRpsShare, target: `≥ ${pct(GATE.minRpsShare)}` },
      { what: 'v1 read p99', share: share((r) => r.v1.p99), ok: (s) => s <= GATE.maxP99Share, target: `≤ ${pct(GATE.maxP99Share)}` },
      {
        what: 'event p50',
        share: share((r) => r.event.p50),
        ok: (s) => s <= GATE.maxEventP50Share,
        target: `≤ ${pct(GATE.maxEventP50Share)}`,
      },
    ];
  };
  const gated = checks('1 %');
  const full = checks('100 %');
  log('\n| of off | 1 % | 100 % (not gated) | gate at 1 % |');
  log('|---|---|---|---|');
  for (const [i, c] of gated.entries())
    log(`| ${c.what} | ${pct(c.share)} | ${pct(full[i].share)} | ${c.target}${c.ok(c.share) ? '' : ' MISSED'} |`);
  const loadAtEnd = loadavg()[0];
  const minutes = (performance.now() - started) / 60_000;
  log(`\n${minutes.toFixed(1)} min in all; load (1 min) ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at the end.`);

  await mkdir(join(root, 'artifacts', 'bench'), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, loadAtStart, loadAtEnd, minutes, rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS, trials: TRIALS, figures, runs }, null, 2)}\n`,
  );
  const missed = gated.filter((c) => !c.ok(c.share));
  if (missed.length > 0)
    throw new Error(`gate missed at 1 %: ${missed.map((c) => `${c.what} ${pct(c.share)} of off (${c.target})`).join('; ')}`);
  log('gate met at 1 %');
}

await runBench(main, async () => {
  for (const stack of [...stacks].reverse()) {
    await stack.group?.stop();
    await stack.sink.close();
    await stack.backend.cleanup();
  }
});
