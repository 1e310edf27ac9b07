import { CONFIG, LOGGER } from '@clipit/service-kit';
import { WORKER_EVENTS, WORKER_SETTINGS, type EventSink, type WorkerSettings } from '@clipit/worker-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { MetricsWorkerConfig } from './config.js';
import type { MetricsFetchedEvent, XPostsLookup } from './ports.js';
import { RefreshMetricsHandler } from './jobs/refresh-metrics.handler.js';
import { X_API } from './metrics-worker.tokens.js';
import { MetricsQueueWorker } from './worker/metrics-queue.worker.js';

/**
 * The worker's job handler and the BullMQ worker that feeds it; over HTTP it serves only the kit's
 * /health and /metrics. The kit starts the queue worker once the service is up and stops it first.
 * No outbox here (no database): the job is the durable record. The handler keeps the decided event in the
 * job before publishing; a failed publication delays the job and publishes the kept event again (same
 * deterministic id), X not asked again (ADR 0019, ADR 0034).
 */
@Module({
  providers: [
    {
      provide: MetricsQueueWorker,
      useFactory: (settings: WorkerSettings, logger: Logger) => new MetricsQueueWorker({ ...settings, logger }),
      inject: [WORKER_SETTINGS, LOGGER],
    },
    {
      provide: RefreshMetricsHandler,
      useFactory: (
        x: XPostsLookup,
        worker: MetricsQueueWorker,
        events: EventSink<MetricsFetchedEvent>,
        config: MetricsWorkerConfig,
        logger: Logger,
      ) => {
        const handler = new RefreshMetricsHandler({
          x,
          events,
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
      inject: [X_API, MetricsQueueWorker, WORKER_EVENTS, CONFIG, LOGGER],
    },
  ],
})
export class MetricsWorkerModule {}
