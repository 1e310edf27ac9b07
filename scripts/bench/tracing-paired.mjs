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
// the gate. One start of a gateway can cost a fifth to a half more per answer than the next start of the same
// gateway (V8's decisions; ADR 0054), so every mode's processes start BENCH_STARTS times (3), each start with
// its rounds of slices, and each start's shares are printed beside the medians over all of them. The modes start in
// an order that rotates from start to start, as the slices do from round to round: in some runs the stack started
// last answered up to a sixth cheaper than the others, whatever its mode.
//
//   npm run bench:tracing-paired
//   BENCH_STARTS=3 BENCH_SLICES=6 BENCH_SLICE_SECONDS=2 BENCH_CONNECTIONS=50 npm run bench:tracing-paired
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { isolatedBackend } from './isolation.mjs';
import { envNumber, log, rotated } from './measure.mjs';
import { cpuSplitMs, processGroup } from './processes.mjs';
import { SAME_ENCODING, startServices } from './services.mjs';
import { publishApprovedClips, startOtlpSink, tracingEnv } from './tracing-modes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STARTS = envNumber('BENCH_STARTS', 3);
const SLICES = envNumber('BENCH_SLICES', 6);
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

/** Waits until a stack's feed page shows its CLIPS clips (published once, as submissions publishes them). */
async function untilPageShowsClips(gatewayUrl) {
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
    `# bench:tracing-paired: ${MODES.map((m) => m.name).join(', ')} side by side; ${STARTS} starts of each, ${SLICES} rounds of ${SLICE_SECONDS} s slices a start, at ${CONNECTIONS} connections; load ${loadavg()[0].toFixed(2)} at start`,
  );
  const sink = await startOtlpSink();
  const stacks = [];
  try {
    for (const mode of MODES) {
      const backend = await isolatedBackend(`benchpaired${stacks.length}`, { otherDatabases: ['feed'] });
      stacks.push({ mode, backend, slices: [] });
    }
    for (let start = 0; start < STARTS; start += 1) {
      // Started in an order that rotates from start to start: the stack started last ran up to a sixth cheaper per
      // answer than the others in some runs, whatever its mode, so a fixed order would give one mode that place.
      for (const stack of rotated(stacks, start)) {
        stack.group = processGroup(root);
        Object.assign(
          stack,
          await startServices(stack.group, stack.backend, ['identity', 'feed'], { env: tracingEnv(stack.mode.ratio, sink.url) }),
        );
        // Published once, when the first start has made the stream; every later start finds them.
        if (start === 0) await publishApprovedClips(stack.backend, { id: randomUUID(), handle: 'pairedbench' }, CLIPS);
        await untilPageShowsClips(stack.gatewayUrl);
      }
      for (const stack of stacks) await load(`${stack.gatewayUrl}${PAGE}`, WARM_UP_SECONDS);
      for (let round = 0; round < SLICES; round += 1) {
        // A rotating order: no mode always follows the same one.
        for (const stack of rotated(stacks, round)) {
          const before = cpuSplitMs(stack.children.gateway);
          const result = await load(`${stack.gatewayUrl}${PAGE}`, SLICE_SECONDS);
          const after = cpuSplitMs(stack.children.gateway);
          const bad = result.non2xx + result.errors + result.timeouts;
          if (bad > 0) throw new Error(`${stack.mode.name}: ${bad} answers not 2xx or failed`);
          const n = result.requests.total;
          stack.slices[start * SLICES + round] = {
            start,
            rps: result.requests.average,
            p99: result.latency.p99,
            user: ((after.user - before.user) * 1000) / n,
            system: ((after.system - before.system) * 1000) / n,
          };
        }
      }
      for (const stack of [...stacks].reverse()) {
        await stack.group.stop();
        stack.group = undefined;
      }
      log(`start ${start + 1}/${STARTS} done`);
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
  const pct = (v) => `${(v * 100).toFixed(1)} %`;
  log(
    `\nMedians of ${STARTS} starts × ${SLICES} slices of ${SLICE_SECONDS} s; CPU: the gateway's, every thread, per answer; "of off": the median of each round's ratio; "by start": that median within each start.\n`,
  );
  log('| mode | req/s | p99 | CPU/req (user + system) | req/s of off | CPU/req of off | CPU/req of off, by start |');
  log('|---|---|---|---|---|---|---|');
  for (const stack of stacks) {
    const s = stack.slices;
    const cpuShares = s.map((x, i) => ({ start: x.start, share: cpu(x) / cpu(off.slices[i]) }));
    const byStart = Array.from({ length: STARTS }, (_, start) =>
      pct(median(cpuShares.filter((c) => c.start === start).map((c) => c.share))),
    );
    log(
      `| ${stack.mode.name} | ${median(s.map((x) => x.rps)).toFixed(0)} | ${median(s.map((x) => x.p99))} ms | ${median(s.map(cpu)).toFixed(1)} µs (${median(s.map((x) => x.user)).toFixed(1)} + ${median(s.map((x) => x.system)).toFixed(1)}) | ${pct(median(s.map((x, i) => x.rps / off.slices[i].rps)))} | ${pct(median(cpuShares.map((c) => c.share)))} | ${byStart.join(', ')} |`,
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
