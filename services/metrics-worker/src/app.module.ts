import { CONFIG, EventPublisher, LOGGER, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { MetricsWorkerConfig } from './config.js';
import type { XPostsLookup } from './ports.js';
import { RefreshMetricsHandler } from './jobs/refresh-metrics.handler.js';
import { X_API } from './metrics-worker.tokens.js';
import { MetricsQueueWorker } from './worker/metrics-queue.worker.js';

/**
 * The worker's job handler and the BullMQ worker that feeds it; over HTTP it serves only the kit's
 * /health and /metrics. The kit starts the queue worker once the service is up and stops it first.
 */
@Module({
  providers: [
    {
      provide: MetricsQueueWorker,
      useFactory: (config: MetricsWorkerConfig, logger: Logger) =>
        new MetricsQueueWorker({
          redisUrl: config.REDIS_URL,
          redisKeyPrefix: config.REDIS_KEY_PREFIX,
          logger,
          concurrency: config.METRICS_WORKER_CONCURRENCY,
          lockDurationMs: config.METRICS_WORKER_LOCK_DURATION_MS,
          stalledIntervalMs: config.METRICS_WORKER_STALLED_INTERVAL_MS,
          maxStalledCount: config.METRICS_WORKER_MAX_STALLED_COUNT,
          runRetryDelayMs: config.METRICS_WORKER_RUN_RETRY_DELAY_MS,
          publishRetryMinMs: config.METRICS_WORKER_PUBLISH_RETRY_MIN_MS,
          publishRetryMaxMs: Math.max(config.METRICS_WORKER_PUBLISH_RETRY_MAX_MS, config.METRICS_WORKER_PUBLISH_RETRY_MIN_MS),
        }),
      inject: [CONFIG, LOGGER],
    },
    {
      provide: RefreshMetricsHandler,
      useFactory: (x: XPostsLookup, worker: MetricsQueueWorker, nc: NatsConnection, config: MetricsWorkerConfig, logger: Logger) => {
        const handler = new RefreshMetricsHandler({
          x,
          // No outbox here (no database): the job is the durable record. The handler keeps the decided event
          // in the job before publishing; a failed publication delays the job and publishes the kept event
          // again (same deterministic id), X not asked again (ADR 0019).
          events: new EventPublisher({
            nc,
            names: { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX },
            timeoutMs: config.METRICS_WORKER_PUBLISH_TIMEOUT_MS,
          }),
          followUps: worker,
          queuePause: worker,
          logger,
          rateLimit: {
            marginMs: config.METRICS_WORKER_RATE_LIMIT_MARGIN_MS,
            backoffMinMs: config.METRICS_WORKER_RATE_LIMIT_BACKOFF_MIN_MS,
            backoffMaxMs: Math.max(config.METRICS_WORKER_RATE_LIMIT_BACKOFF_MAX_MS, config.METRICS_WORKER_RATE_LIMIT_BACKOFF_MIN_MS),
          },
          partialRetryDelayMs: config.METRICS_WORKER_PARTIAL_RETRY_DELAY_MS,
          partialRetryMax: config.METRICS_WORKER_PARTIAL_RETRY_MAX,
        });
        worker.use(handler);
        return handler;
      },
      inject: [X_API, MetricsQueueWorker, NATS_CONNECTION, CONFIG, LOGGER],
    },
  ],
})
export class MetricsWorkerModule {}
