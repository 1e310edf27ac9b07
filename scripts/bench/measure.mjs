// The measuring loop the HTTP benchmarks share: a short warm-up (JIT, connection pools), then the
// measured autocannon run, one printed line per run, and a failure when any answer was not 2xx.
import autocannon from 'autocannon';

export function log(message) {
  process.stdout.write(`${message}\n`);
}

/**
 * Measures `opts` (autocannon's url/requests) at `connections` for `duration` seconds after a 2 s
 * warm-up at `warmConnections` (then calls `afterWarmUp`, if given); prints `label`, req/s, p50, p99 and the count; answers the result.
 */
export async function measure(label, opts, { connections, duration, warmConnections = 4, labelWidth = 34, afterWarmUp }) {
  await autocannon({ ...opts, connections: Math.min(warmConnections, connections), duration: 2 });
  // Lets a caller take readings (CPU used so far) between the warm-up and the measured run.
  await afterWarmUp?.();
  const result = await autocannon({ ...opts, connections, duration });
  const bad = result.non2xx + result.errors + result.timeouts;
  log(
    `${label.padEnd(labelWidth)} ${result.requests.average.toFixed(0).padStart(7)} req/s   ` +
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms   ${result.requests.total} requests, ${bad} not 2xx/errors`,
  );
  if (bad > 0) throw new Error(`${label}: ${bad} answers were not 2xx`);
  return result;
}
