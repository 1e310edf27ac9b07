import { CONFIG, LOGGER } from '@clipit/service-kit';
import { STORAGE, type StorageDriver } from '@clipit/storage';
import { WORKER_EVENTS, WORKER_SETTINGS, type EventSink, type WorkerSettings } from '@clipit/worker-kit';
import { enqueueFingerprintVideo, type MediaQueue } from '@clipit/media-queue';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { MediaWorkerConfig } from './config.js';
import { FingerprintVideoHandler } from './jobs/fingerprint-video.handler.js';
import { ProcessVideoHandler } from './jobs/process-video.handler.js';
import type { FingerprintEvent, FingerprintTools, MediaEvent, VideoTools } from './jobs/ports.js';
import { MEDIA_QUEUE_PRODUCER, MEDIA_TOOLS, WORK_ROOT } from './media-worker.tokens.js';
import { MediaQueueWorker } from './worker/media-queue.worker.js';

/**
 * The worker's job handler and the BullMQ worker that feeds it; over HTTP it serves only the kit's
 * /health and /metrics. The kit starts the queue worker once the service is up and stops it first.
 * No outbox here (no database): the job is the durable record. The handler keeps the decided event in
 * the job before publishing, a failed publish delays the job and publishes the kept event again (same
 * deterministic id), and submissions' reconciler re-drives a video whose verdict never arrived (ADR 0012,
 * ADR 0019, ADR 0034).
 */
@Module({
  providers: [
    {
      provide: ProcessVideoHandler,
      useFactory: (
        storage: StorageDriver,
        tools: VideoTools,
        events: EventSink<MediaEvent>,
        logger: Logger,
        tmpRoot: string,
        config: MediaWorkerConfig,
        queue: MediaQueue,
      ) =>
        new ProcessVideoHandler({
          storage,
          tools,
          events,
          logger,
          tmpRoot,
          maxBitRate: config.MEDIA_MAX_BIT_RATE,
          fingerprints: { enqueue: (job) => enqueueFingerprintVideo(queue, job) },
        }),
      inject: [STORAGE, MEDIA_TOOLS, WORKER_EVENTS, LOGGER, WORK_ROOT, CONFIG, MEDIA_QUEUE_PRODUCER],
    },
    {
      provide: FingerprintVideoHandler,
      useFactory: (storage: StorageDriver, tools: FingerprintTools, events: EventSink<FingerprintEvent>, logger: Logger, tmpRoot: string) =>
        new FingerprintVideoHandler({ storage, tools, events, logger, tmpRoot }),
      inject: [STORAGE, MEDIA_TOOLS, WORKER_EVENTS, LOGGER, WORK_ROOT],
    },
    {
      provide: MediaQueueWorker,
      useFactory: (handler: ProcessVideoHandler, fingerprints: FingerprintVideoHandler, settings: WorkerSettings, logger: Logger) =>
        new MediaQueueWorker({ ...settings, handler, fingerprints, logger }),
      inject: [ProcessVideoHandler, FingerprintVideoHandler, WORKER_SETTINGS, LOGGER],
    },
  ],
})
export class MediaWorkerModule {}
