// The measuring loop the HTTP benchmarks share: a short warm-up (JIT, connection pools), then the
// measured autocannon run, one printed line per run, and a failure when any answer was not 2xx, or, for
// a baseline, when it ran below its floors (baseline.mjs).
import autocannon from 'autocannon';
import { checkHttpBaseline, checkHttpMeasured } from './baseline.mjs';

/** A bench's numeric setting: the variable `name` when set and not empty, else `fallback`. */
export function envNumber(name, fallback) {
  return Number(process.env[name] || fallback);
}

export function log(message) {
  process.stdout.write(`${message}\n`);
}

/**
 * Measures `opts` (autocannon's url/requests) at `connections` for `duration` seconds after a 2 s
 * warm-up at `warmConnections` (then calls `afterWarmUp`, if given); prints `label`, req/s, p50, p99 and the count; answers the result.
 * `baseline` (floors, e.g. HTTP_STATIC_FLOORS) marks the run a ratio divides by: it is refused below them.
 * `fineLatency`: the result's `latency.p50` and `p99` are read to the microsecond from every 2xx answer's own time
 * (autocannon's histogram keeps whole milliseconds, so a 2 ms p99 can only become 3 ms, 150 % of itself).
 */
export async function measure(
  label,
  opts,
  { connections, duration, warmConnections = 4, labelWidth = 34, afterWarmUp, baseline, fineLatency = false },
) {
  await autocannon({ ...opts, connections: Math.min(warmConnections, connections), duration: 2 });
  // Lets a caller take readings (CPU used so far) between the warm-up and the measured run.
  await afterWarmUp?.();
  const run = autocannon({ ...opts, connections, duration });
  const times = fineLatency ? answerTimes(run) : undefined;
  const result = await run;
  if (times !== undefined) Object.assign(result.latency, times.percentiles());
  const bad = result.non2xx + result.errors + result.timeouts;
  log(
    `${label.padEnd(labelWidth)} ${result.requests.average.toFixed(0).padStart(7)} req/s   ` +
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms   ${result.requests.total} requests, ${bad} not 2xx/errors`,
  );
  return baseline ? checkHttpBaseline(label, result, baseline) : checkHttpMeasured(label, result);
}

/**
 * Every 2xx answer's time (ms, to the microsecond) of an autocannon run, as its histogram counts them (no
 * correction for a fixed rate, which `measure` does not set); `percentiles()` answers p50 and p99 (nearest rank),
 * rounded to the microsecond.
 */
export function answerTimes(run) {
  let times = new Float64Array(1 << 16);
  let count = 0;
  run.on('response', (_client, statusCode, _bytes, ms) => {
    const status = Number(statusCode);
    if (status < 200 || status > 299) return;
    if (count === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[count++] = ms;
  });
  const at = (sorted, q) => Math.round(percentile(sorted, q) * 1000) / 1000;
  return {
    percentiles() {
      const sorted = times.subarray(0, count).sort();
      return { p50: at(sorted, 0.5), p99: at(sorted, 0.99) };
    },
  };
}

/** `q` (0 to 1) of sorted numbers, nearest rank; NaN of none. */
export function percentile(sorted, q) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * `list` turned left by `by` places: the order of a bench's modes in its round (or start) `by`, so that no mode
 * always goes first, last, or after the same one.
 */
export function rotated(list, by) {
  return list.map((_, k) => list[(by + k) % list.length]);
}
