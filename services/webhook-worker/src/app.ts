import { bootstrapService, packageVersion, resource, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { defineWorker } from '@clipit/worker-kit';
import { WebhookWorkerModule } from './app.module.js';
import { productionConfigProblem, webhookWorkerConfigShape, type WebhookWorkerConfig } from './config.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { WEBHOOK_SENDER } from './webhook-worker.tokens.js';
import { WebhookQueueWorker } from './worker/webhook-queue.worker.js';

/**
 * webhook-worker: makes the attempts at webhook deliveries (ADR 0053). Takes webhook-delivery jobs from the
 * webhook queue in Redis, POSTs each payload signed per Standard Webhooks to its endpoint (never to a private
 * address), and states each attempt's outcome as webhook.attempted on NATS. No database.
 */
export const webhookWorkerService = defineWorker(webhookWorkerConfigShape, {
  name: 'webhook-worker',
  version: packageVersion(import.meta.url),
  startProblem: productionConfigProblem,
  resources: [
    resource<WebhookWorkerConfig, WebhookSender>(
      'webhook sender',
      WEBHOOK_SENDER,
      ({ config, logger }) => {
        if (config.WEBHOOK_ALLOW_LOOPBACK)
          logger.warn('WEBHOOK_ALLOW_LOOPBACK is on: deliveries may reach loopback addresses (tests only)');
        return new WebhookSender({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK });
      },
      { close: (sender) => sender.close() },
    ),
  ],
  worker: WebhookQueueWorker,
  module: WebhookWorkerModule,
});

export type WebhookWorkerApp = ServiceApp<WebhookWorkerConfig>;
export type WebhookWorkerConfigOverrides = ConfigOverrides<typeof webhookWorkerConfigShape>;

export const bootstrapWebhookWorker = (overrides: WebhookWorkerConfigOverrides = {}): Promise<WebhookWorkerApp> =>
  bootstrapService(webhookWorkerService, overrides);
