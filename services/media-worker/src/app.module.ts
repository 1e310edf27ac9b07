import { CONFIG, EventPublisher, LOGGER, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { STORAGE, type StorageDriver } from '@clipit/storage';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { MediaWorkerConfig } from './config.js';
import { ProcessVideoHandler } from './jobs/process-video.handler.js';
import type { VideoTools } from './jobs/ports.js';
import { MEDIA_TOOLS, WORK_ROOT } from './media-worker.tokens.js';
import { MediaQueueWorker } from './worker/media-queue.worker.js';

/**
 * The worker's job handler and the BullMQ worker that feeds it; over HTTP it serves only the kit's
 * /health and /metrics. The kit starts the queue worker once the service is up and stops it first.
 */
@Module({
  providers: [
    {
      provide: ProcessVideoHandler,
      useFactory: (
        storage: StorageDriver,
        tools: VideoTools,
        nc: NatsConnection,
        config: MediaWorkerConfig,
        logger: Logger,
        tmpRoot: string,
      ) =>
        new ProcessVideoHandler({
          storage,
          tools,
          // No outbox here (no database): the job is the durable record. The handler keeps the decided event
          // in the job before publishing, a failed publish delays the job and publishes the kept event again
          // (same deterministic id), and submissions' reconciler re-drives a video whose verdict never
          // arrived (ADR 0012, ADR 0019).
          events: new EventPublisher({
            nc,
            names: { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX },
            timeoutMs: config.MEDIA_WORKER_PUBLISH_TIMEOUT_MS,
          }),
          logger,
          tmpRoot,
        }),
      inject: [STORAGE, MEDIA_TOOLS, NATS_CONNECTION, CONFIG, LOGGER, WORK_ROOT],
    },
    {
      provide: MediaQueueWorker,
      useFactory: (handler: ProcessVideoHandler, config: MediaWorkerConfig, logger: Logger) =>
        new MediaQueueWorker({
          redisUrl: config.REDIS_URL,
          redisKeyPrefix: config.REDIS_KEY_PREFIX,
          handler,
          logger,
          concurrency: config.MEDIA_WORKER_CONCURRENCY,
          lockDurationMs: config.MEDIA_WORKER_LOCK_DURATION_MS,
          stalledIntervalMs: config.MEDIA_WORKER_STALLED_INTERVAL_MS,
          maxStalledCount: config.MEDIA_WORKER_MAX_STALLED_COUNT,
          runRetryDelayMs: config.MEDIA_WORKER_RUN_RETRY_DELAY_MS,
          publishRetryMinMs: config.MEDIA_WORKER_PUBLISH_RETRY_MIN_MS,
          publishRetryMaxMs: Math.max(config.MEDIA_WORKER_PUBLISH_RETRY_MAX_MS, config.MEDIA_WORKER_PUBLISH_RETRY_MIN_MS),
        }),
      inject: [ProcessVideoHandler, CONFIG, LOGGER],
    },
  ],
})
export class MediaWorkerModule {}
