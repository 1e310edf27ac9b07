import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import { jobMetrics } from '@clipit/worker-kit';
import { Counter, Histogram } from 'prom-client';
import type { RateLimitReason } from './ports.js';

/** How one request to X went. */
export type XRequestOutcome = 'ok' | 'too-many-requests' | 'server-error' | 'client-error' | 'unavailable';

/** metrics_jobs_total and metrics_job_duration_seconds, by how a job ended on this worker. */
export const metricsJobs = jobMetrics('metrics', {
  results:
    "fetched (stated), rate-limited (back to the queue, no attempt used), retried (X's 5xx or no answer: will run again), requeued (put back on shutdown), rejected (bad job data), refused (X refused the request: 401/403/400), publish-delayed (decided but NATS did not take the event), gave-up (X kept leaving posts out)",
  run: 'one lookup at X, the event published, the follow-up queued',
});

export const xRequests = metricOnce(
  'x_api_requests_total',
  () =>
    new Counter({
      name: 'x_api_requests_total',
      help: "Requests to X's post lookup, by outcome: ok, too-many-requests (429), server-error (5xx), client-error (other 4xx), unavailable (timeout or no connection)",
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

export const xRequestSeconds = metricOnce(
  'x_api_request_duration_seconds',
  () =>
    new Histogram({
      name: 'x_api_request_duration_seconds',
      help: "Time of one request to X's post lookup, by outcome",
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [metricsRegistry],
    }),
);

export const postsFetched = metricOnce(
  'metrics_posts_fetched_total',
  () =>
    new Counter({
      name: 'metrics_posts_fetched_total',
      help: 'Posts X answered about, by outcome: found (metrics stated), missing (deleted or not visible), unanswered (left out of the answer: queued again)',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

export const rateLimitWaits = metricOnce(
  'x_api_rate_limit_waits_total',
  () =>
    new Counter({
      name: 'x_api_rate_limit_waits_total',
      help: "Times this worker paused every worker for X's rate limit, by reason: window-used-up (remaining 0), too-many-requests (429 with reset), too-many-requests-backoff (429 without reset)",
      labelNames: ['reason'],
      registers: [metricsRegistry],
    }),
);

export const rateLimitWaitSeconds = metricOnce(
  'x_api_rate_limit_wait_seconds_total',
  () =>
    new Counter({
      name: 'x_api_rate_limit_wait_seconds_total',
      help: "Seconds of pause this worker asked of every worker for X's rate limit, by reason",
      labelNames: ['reason'],
      registers: [metricsRegistry],
    }),
);

export function recordXRequest(outcome: XRequestOutcome, seconds: number): void {
  xRequests.inc({ outcome });
  xRequestSeconds.observe({ outcome }, seconds);
}

export function recordRateLimitWait(reason: RateLimitReason, waitMs: number): void {
  rateLimitWaits.inc({ reason });
  rateLimitWaitSeconds.inc({ reason }, waitMs / 1000);
}

export function statusOutcome(status: number): XRequestOutcome {
  if (status === 200) return 'ok';
  if (status === 429) return 'too-many-requests';
  return status >= 500 ? 'server-error' : 'client-error';
}
