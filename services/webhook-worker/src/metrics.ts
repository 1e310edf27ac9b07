import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import { jobMetrics } from '@clipit/worker-kit';
import { Counter, Histogram } from 'prom-client';
import type { FailureKind } from './ports.js';

/** How one attempt went: the class of the endpoint's status, or why there was none. */
export type AttemptOutcome = 'ok' | 'redirect' | 'client-error' | 'server-error' | 'informational' | FailureKind;

/** webhook_jobs_total and webhook_job_duration_seconds, by how a job ended on this worker. */
export const webhookJobs = jobMetrics('webhook', {
  results:
    'delivered (the endpoint answered 2xx; stated), undelivered (any other answer or none; stated: developer schedules the next attempt), retried (will run again), requeued (put back on shutdown), rejected (bad job data or a secret that does not open), publish-delayed (decided but NATS did not take the event: published again later)',
  run: 'one POST to the endpoint, its outcome published',
});

export const webhookAttempts = metricOnce(
  'webhook_attempts_total',
  () =>
    new Counter({
      name: 'webhook_attempts_total',
      help: 'Delivery attempts, by outcome: ok (2xx), redirect (3xx, not followed), client-error (4xx), server-error (5xx), timeout, address-refused (an address the rules refuse: not connected), dns, connection (refused, reset, unreachable), tls, protocol (not HTTP)',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

export const webhookAttemptSeconds = metricOnce(
  'webhook_attempt_duration_seconds',
  () =>
    new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: "Time from the start of an attempt to the endpoint's status line, or to the failure, by outcome",
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [metricsRegistry],
    }),
);

export function recordAttempt(outcome: AttemptOutcome, latencyMs: number): void {
  webhookAttempts.inc({ outcome });
  webhookAttemptSeconds.observe({ outcome }, latencyMs / 1000);
}

export function statusOutcome(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 300 && status < 400) return 'redirect';
  if (status >= 400 && status < 500) return 'client-error';
  if (status >= 500) return 'server-error';
  return 'informational';
}
