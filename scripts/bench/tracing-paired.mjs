// `npm run bench:tracing-paired`: what tracing costs the gateway's cached feed page, measured so that the machine's
// drift cancels (ADR 0054, section 12). `bench:tracing` starts each mode's processes in turn, and on a shared
// two-core machine the same process's CPU per request moves by a third from one minute to the next; a mode then
// pays for the minute it ran in. Here every mode runs at once, each on a backend of its own (identity, feed and a
// gateway), and the load goes to one gateway at a time in short slices, the modes in a rotating order, so that
// each slice of one mode has slices of the others beside it:
//   - off: no collector (the preload loads nothing);
//   - 0 %: tracing on, no request kept (the cost of the SDK being there);
//   - 1 %: OTEL_TRACES_SAMPLER=parentbased_traceidratio at 0.01, as bench:tracing.
// Each slice reads the gateway's user and system CPU time (/proc, every thread) and divides it by the answers.
// Each mode's figures are the medians of its slices; "of off" is the median, over the rounds of slices, of each
// slice's figure divided by the off slice of the same round. It reports and gates nothing: bench:tracing holds
// the gate. What it does not cancel is a start: each mode is one start of its processes, and one start of the
// same gateway can cost a fifth more per answer than the next (V8's decisions), so repeat it before reading a
// difference of that size.
//
//   npm run bench:tracing-paired
//   BENCH_SLICES=10 BENCH_SLICE_SECONDS=2 BENCH_CONNECTIONS=50 npm run bench:tracing-paired
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { isolatedBackend } from './isolation.mjs';
import { envNumber, log } from './measure.mjs';
import { cpuSplitMs, processGroup } from './processes.mjs';
import { SAME_ENCODING, startServices } from './services.mjs';
import { publishApprovedClips, startOtlpSink, tracingEnv } from './tracing-modes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SLICES = envNumber('BENCH_SLICES', 10);
const SLICE_SECONDS = envNumber('BENCH_SLICE_SECONDS', 2);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50);
const WARM_UP_SECONDS = 3;
const PAGE = '/api/feed/clips?limit=10';
const CLIPS = 10;
const MODES = [
  { name: 'off', ratio: undefined },
  { name: '0 %', ratio: 0 },
  { name: '1 %', ratio: 0.01 },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CLIPS approved clips in a stack's feed, published as submissions publishes them, and the page showing them. */
async function seedFeed(backend, gatewayUrl) {
  await publishApprovedClips(backend, { id: randomUUID(), handle: 'pairedbench' }, CLIPS);
  for (const started = Date.now(); ;) {
    const res = await fetch(`${gatewayUrl}${PAGE}`);
    const shown = res.status === 200 ? (await res.json()).submissions.length : 0;
    if (shown === CLIPS) return;
    if (Date.now() - started > 30_000) throw new Error(`the feed page shows ${shown} clips of ${CLIPS} after 30 s`);
    await sleep(200);
  }
}

function load(url, duration) {
  return new Promise((resolve, reject) =>
    autocannon({ url, headers: SAME_ENCODING, connections: CONNECTIONS, duration }, (err, result) => (err ? reject(err) : resolve(result))),
  );
}

async function main() {
  const started = performance.now();
  log(
    `# bench:tracing-paired: ${MODES.map((m) => m.name).join(', ')} side by side; ${SLICES} rounds of ${SLICE_SECONDS} s slices at ${CONNECTIONS} connections; load ${loadavg()[0].toFixed(2)} at start`,
  );
  const sink = await startOtlpSink();
  const stacks = [];
  try {
    for (const mode of MODES) {
      const backend = await isolatedBackend(`benchpaired${stacks.length}`, { otherDatabases: ['feed'] });
      const group = processGroup(root);
      const stack = { mode, backend, group, slices: [] };
      stacks.push(stack);
      Object.assign(stack, await startServices(group, backend, ['identity', 'feed'], { env: tracingEnv(mode.ratio, sink.url) }));
      await seedFeed(backend, stack.gatewayUrl);
    }
    for (const stack of stacks) await load(`${stack.gatewayUrl}${PAGE}`, WARM_UP_SECONDS);
    for (let round = 0; round < SLICES; round += 1) {
      // A rotating order: no mode always follows the same one.
      for (let k = 0; k < stacks.length; k += 1) {
        const stack = stacks[(round + k) % stacks.length];
        const before = cpuSplitMs(stack.children.gateway);
        const result = await load(`${stack.gatewayUrl}${PAGE}`, SLICE_SECONDS);
        const after = cpuSplitMs(stack.children.gateway);
        const bad = result.non2xx + result.errors + result.timeouts;
        if (bad > 0) throw new Error(`${stack.mode.name}: ${bad} answers not 2xx or failed`);
        const n = result.requests.total;
        stack.slices[round] = {
          rps: result.requests.average,
          p99: result.latency.p99,
          user: ((after.user - before.user) * 1000) / n,
          system: ((after.system - before.system) * 1000) / n,
        };
      }
    }
  } finally {
    for (const stack of [...stacks].reverse()) {
      await stack.group?.stop();
      await stack.backend.cleanup();
    }
    await sink.close();
  }

  const off = stacks[0];
  const cpu = (s) => s.user + s.system;
  log(
    `\nMedians of ${SLICES} slices of ${SLICE_SECONDS} s; CPU: the gateway's, every thread, per answer; "of off": the median of each round's ratio.\n`,
  );
  log('| mode | req/s | p99 | CPU/req (user + system) | req/s of off | CPU/req of off |');
  log('|---|---|---|---|---|---|');
  for (const stack of stacks) {
    const s = stack.slices;
    const rpsShare = median(s.map((x, i) => x.rps / off.slices[i].rps));
    const cpuShare = median(s.map((x, i) => cpu(x) / cpu(off.slices[i])));
    log(
      `| ${stack.mode.name} | ${median(s.map((x) => x.rps)).toFixed(0)} | ${median(s.map((x) => x.p99))} ms | ${median(s.map(cpu)).toFixed(1)} µs (${median(s.map((x) => x.user)).toFixed(1)} + ${median(s.map((x) => x.system)).toFixed(1)}) | ${(rpsShare * 100).toFixed(1)} % | ${(cpuShare * 100).toFixed(1)} % |`,
    );
  }
  log(`\n${((performance.now() - started) / 60_000).toFixed(1)} min in all; load (1 min) ${loadavg()[0].toFixed(2)} at the end.`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
