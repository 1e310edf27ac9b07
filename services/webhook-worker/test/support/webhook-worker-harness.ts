import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_DELIVERY_JOB_OPTIONS,
  WEBHOOK_QUEUE,
  webhookDeliveryJobId,
  type WebhookDeliveryJob,
} from '@clipit/contracts';
import { createJobQueue } from '@clipit/media-queue';
import { sealSecret } from '@clipit/service-kit';
import { WorkerHarness, type ReceivedEvent } from '@clipit/testing';
import { bootstrapWebhookWorker, type WebhookWorkerApp, type WebhookWorkerConfigOverrides } from '../../src/app.js';
import type { WebhookAttemptedEvent } from '../../src/ports.js';

const openQueue = (redisUrl: string, prefix: string) =>
  createJobQueue<WebhookDeliveryJob, typeof WEBHOOK_DELIVERY_JOB>({
    queue: WEBHOOK_QUEUE,
    connection: { url: redisUrl },
    prefix,
    defaultJobOptions: WEBHOOK_DELIVERY_JOB_OPTIONS,
  });

/** A fresh endpoint signing secret, as developer makes them: `whsec_` and the base64 of 24 random bytes. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export interface DeliveryOptions {
  url: string;
  /** The endpoint's secrets in the clear, current first; sealed under this pipeline's key as developer seals them. */
  secrets?: string[];
  payload?: string;
  attempt?: number;
  deliveryId?: string;
  /** Sealed values as they are (a secret sealed under another key, say), instead of `secrets`. */
  sealedSecrets?: string[];
}

/**
 * One isolated webhook pipeline per test file (WorkerHarness from @clipit/testing: its own queue, stream and
 * subject prefix, the events the worker publishes, workers in this process or as processes of the built
 * service), with its own sealing key, and deliveries queued as developer queues them.
 */
export class WebhookWorkerHarness extends WorkerHarness<
  WebhookWorkerApp,
  WebhookAttemptedEvent,
  ReturnType<typeof openQueue>,
  WebhookWorkerConfigOverrides
> {
  /** WEBHOOK_SECRET_KEY of this pipeline's workers (not the development one). */
  readonly key = randomBytes(32);

  /** `natsUrl`: a private NATS (startNatsServer) for outage tests; the run's shared one by default. */
  constructor(natsUrl?: string) {
    // Only what is given here reaches a worker process: no NODE_ENV or key of the developer's environment.
    super({
      service: 'webhook-worker',
      bootstrap: bootstrapWebhookWorker,
      openQueue,
      processEnv: 'path-only',
      ...(natsUrl ? { natsUrl } : {}),
    });
  }

  /** This pipeline's key, loopback receivers allowed (the tests' receivers are on 127.0.0.1), a short attempt, quick takeovers. */
  protected override workerEnv(): WebhookWorkerConfigOverrides {
    return {
      WEBHOOK_SECRET_KEY: this.key.toString('base64'),
      WEBHOOK_ALLOW_LOOPBACK: true,
      WEBHOOK_TIMEOUT_MS: 1000,
      WEBHOOK_WORKER_LOCK_DURATION_MS: 5000,
      WEBHOOK_WORKER_STALLED_INTERVAL_MS: 2000,
    };
  }

  /** Queues one attempt at one delivery under its job id, as developer does. */
  async queueDelivery(opts: DeliveryOptions): Promise<WebhookDeliveryJob & { jobId: string }> {
    const data: WebhookDeliveryJob = {
      deliveryId: opts.deliveryId ?? randomUUID(),
      attempt: opts.attempt ?? 1,
      endpointId: randomUUID(),
      url: opts.url,
      messageId: `msg_${randomUUID()}`,
      payload:
        opts.payload ?? JSON.stringify({ type: 'submission.approved', timestamp: new Date().toISOString(), data: { id: randomUUID() } }),
      sealedSecrets: opts.sealedSecrets ?? (opts.secrets ?? [newSecret()]).map((s) => sealSecret(this.key, s)),
    };
    const jobId = webhookDeliveryJobId(data.deliveryId, data.attempt);
    await this.queue.add(WEBHOOK_DELIVERY_JOB, data, { ...WEBHOOK_DELIVERY_JOB_OPTIONS, jobId });
    return { ...data, jobId };
  }

  async waitForAttempt(deliveryId: string, attempt = 1, timeoutMs = 20_000): Promise<ReceivedEvent<WebhookAttemptedEvent>> {
    return this.waitForEventWhere(
      (e) => e.data.deliveryId === deliveryId && e.data.attempt === attempt,
      timeoutMs,
      `webhook.attempted of delivery ${deliveryId}, attempt ${attempt}`,
    );
  }
}
