import { CONFIG, LOGGER, SERVICE_INFO, sealingKey, type ServiceInfo } from '@clipit/service-kit';
import { WORKER_EVENTS, WORKER_SETTINGS, type WorkerSettings } from '@clipit/worker-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { WebhookWorkerConfig } from './config.js';
import { WebhookDeliveryHandler } from './jobs/webhook-delivery.handler.js';
import type { DeliveryPoster, EventSink } from './ports.js';
import { WEBHOOK_SENDER } from './webhook-worker.tokens.js';
import { WebhookQueueWorker } from './worker/webhook-queue.worker.js';

/**
 * The worker's job handler and the BullMQ worker that feeds it; over HTTP it serves only the kit's /health
 * and /metrics. The worker kit provides WORKER_EVENTS and WORKER_SETTINGS, starts the queue worker once the
 * service is up and stops it first; the sender (WEBHOOK_SENDER) is a resource of the start-up, closed after it.
 */
@Module({
  providers: [
    {
      provide: WebhookDeliveryHandler,
      useFactory: (sender: DeliveryPoster, events: EventSink, config: WebhookWorkerConfig, logger: Logger, info: ServiceInfo) =>
        new WebhookDeliveryHandler({ sender, events, sealingKey: sealingKey(config.WEBHOOK_SECRET_KEY), logger, version: info.version }),
      inject: [WEBHOOK_SENDER, WORKER_EVENTS, CONFIG, LOGGER, SERVICE_INFO],
    },
    {
      provide: WebhookQueueWorker,
      useFactory: (handler: WebhookDeliveryHandler, settings: WorkerSettings, logger: Logger) =>
        new WebhookQueueWorker({ ...settings, handler, logger }),
      inject: [WebhookDeliveryHandler, WORKER_SETTINGS, LOGGER],
    },
  ],
})
export class WebhookWorkerModule {}
