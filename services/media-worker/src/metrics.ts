import { jobMetrics } from '@clipit/worker-kit';

/** media_jobs_total and media_job_duration_seconds, by how a job ended on this worker. */
export const mediaJobs = jobMetrics('media', {
  results:
    'processed, fingerprinted, not-fingerprinted (the fingerprint could not be made), a verdict (too-long, too-large, invalid), processing-error (gave up), retried (will run again), requeued (put back on shutdown), rejected (bad job data), publish-delayed (decided but NATS did not take the event: published again later)',
  run: 'download, probe, poster, transcode, upload, publish; or download, fingerprint, publish',
  buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
});
