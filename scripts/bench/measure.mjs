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
 */
export async function measure(label, opts, { connections, duration, warmConnections = 4, labelWidth = 34, afterWarmUp, baseline }) {
  await autocannon({ ...opts, connections: Math.min(warmConnections, connections), duration: 2 });
  // Lets a caller take readings (CPU used so far) between the warm-up and the measured run.
  await afterWarmUp?.();
  const result = await autocannon({ ...opts, connections, duration });
  const bad = result.non2xx + result.errors + result.timeouts;
  log(
    `${label.padEnd(labelWidth)} ${result.requests.average.toFixed(0).padStart(7)} req/s   ` +
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms   ${result.requests.total} requests, ${bad} not 2xx/errors`,
  );
  return baseline ? checkHttpBaseline(label, result, baseline) : checkHttpMeasured(label, result);
}
