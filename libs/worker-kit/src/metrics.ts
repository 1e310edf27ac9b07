import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import { Counter, Histogram } from 'prom-client';

/** How a worker counts its jobs: `<queue>_jobs_total{result}` and `<queue>_job_duration_seconds{result}`. */
export interface JobMetrics {
  record(result: string, seconds: number): void;
}

export interface JobMetricsHelp {
  /**
   * What each result means, for the counter's help. The kit's own results are `retried` (will run again),
   * `requeued` (put back on shutdown), `rejected` (bad job data) and `publish-delayed` (decided, but NATS
   * did not take the event: published again later); the worker adds its own (`processed`, a verdict, …).
   */
  results: string;
  /** What a run does, for the histogram's help. */
  run: string;
  buckets?: number[];
}

/** The job counter and duration histogram of the worker on queue `queue`, registered once per process. */
export function jobMetrics(queue: string, help: JobMetricsHelp): JobMetrics {
  const counterName = `${queue}_jobs_total`;
  const histogramName = `${queue}_job_duration_seconds`;
  const jobs = metricOnce(
    counterName,
    () =>
      new Counter({
        name: counterName,
        help: `Jobs of the ${queue} queue this worker ran, by result: ${help.results}`,
        labelNames: ['result'],
        registers: [metricsRegistry],
      }),
  );
  const seconds = metricOnce(
    histogramName,
    () =>
      new Histogram({
        name: histogramName,
        help: `Time a job of the ${queue} queue ran on this worker (${help.run}), by result`,
        labelNames: ['result'],
        buckets: help.buckets ?? [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
        registers: [metricsRegistry],
      }),
  );
  return {
    record(result, duration) {
      jobs.inc({ result });
      seconds.observe({ result }, duration);
    },
  };
}
