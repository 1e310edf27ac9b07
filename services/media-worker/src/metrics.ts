import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import { Counter, Histogram } from 'prom-client';

/** How a job ended on this worker. */
export type JobResultLabel =
  'processed' | 'too-long' | 'too-large' | 'invalid' | 'processing-error' | 'retried' | 'requeued' | 'rejected' | 'publish-delayed';

export const mediaJobs = metricOnce(
  'media_jobs_total',
  () =>
    new Counter({
      name: 'media_jobs_total',
      help: 'Media jobs this worker finished, by result: processed, a verdict (too-long, too-large, invalid), processing-error (gave up), retried (will run again), requeued (put back on shutdown), rejected (bad job data), publish-delayed (decided but NATS did not take the event: published again later)',
      labelNames: ['result'],
      registers: [metricsRegistry],
    }),
);

export const mediaJobSeconds = metricOnce(
  'media_job_duration_seconds',
  () =>
    new Histogram({
      name: 'media_job_duration_seconds',
      help: 'Time a media job ran on this worker (download, probe, poster, transcode, upload, publish), by result',
      labelNames: ['result'],
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
      registers: [metricsRegistry],
    }),
);

export function recordJob(result: JobResultLabel, seconds: number): void {
  mediaJobs.inc({ result });
  mediaJobSeconds.observe({ result }, seconds);
}
