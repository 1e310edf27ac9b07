import {
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_DELIVERY_JOB_OPTIONS,
  WEBHOOK_QUEUE,
  webhookDeliveryJobId,
  webhookDeliveryJobSchema,
  type WebhookDeliveryJob,
} from '@clipit/contracts';
import { createJobQueue, readyProducerQueue, type ConnectionLogger } from '@clipit/media-queue';
import { redisConnectionOptions, type HealthCheck, type RedisConnectionConfig } from '@clipit/service-kit';
import type { DeveloperConfig } from './config.js';

/** The webhook queue as developer uses it: the producer end, on the platform's queue key rule. */
export interface WebhookQueuePort {
  /** Queues one attempt; queueing the same attempt again while its job exists adds nothing. */
  enqueue(job: WebhookDeliveryJob): Promise<void>;
  /**
   * What became of the attempt's job: `missing` (Redis lost it, or it was removed), `failed` (the worker could
   * not make the attempt: its data or secret did not open, or it died on it every time), else `queued`
   * (waiting, running, or done and its outcome on its way).
   */
  stateOf(deliveryId: string, attempt: number): Promise<'missing' | 'failed' | 'queued'>;
  close(): Promise<void>;
}
export const WEBHOOK_QUEUE_PORT = Symbol('WEBHOOK_QUEUE_PORT');

/**
 * Opens the queue; resolves once Redis answers. Its readiness is reported, not required: deliveries wait in
 * the database while Redis is away, and the dispatcher queues them when it is back.
 */
export async function openWebhookQueue(
  config: RedisConnectionConfig & Pick<DeveloperConfig, 'REDIS_KEY_PREFIX'>,
  logger?: ConnectionLogger,
): Promise<WebhookQueuePort & { healthCheck: HealthCheck }> {
  const queue = createJobQueue<WebhookDeliveryJob, typeof WEBHOOK_DELIVERY_JOB>({
    queue: WEBHOOK_QUEUE,
    connection: redisConnectionOptions(config),
    prefix: config.REDIS_KEY_PREFIX,
    defaultJobOptions: WEBHOOK_DELIVERY_JOB_OPTIONS,
    ...(logger ? { logger } : {}),
  });
  const ready = await readyProducerQueue(queue, 'webhook-queue');
  return {
    ...ready,
    enqueue: async (job) => {
      const data = webhookDeliveryJobSchema.parse(job);
      await queue.add(WEBHOOK_DELIVERY_JOB, data, {
        ...WEBHOOK_DELIVERY_JOB_OPTIONS,
        jobId: webhookDeliveryJobId(data.deliveryId, data.attempt),
      });
    },
    stateOf: async (deliveryId, attempt) => {
      const job = await queue.getJob(webhookDeliveryJobId(deliveryId, attempt));
      if (!job) return 'missing';
      return (await job.getState()) === 'failed' ? 'failed' : 'queued';
    },
  };
}
