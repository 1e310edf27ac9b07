import { WEBHOOK_QUEUE, type WebhookDeliveryJob } from '@clipit/contracts';
import { QueueWorker, type JobDone, type QueueWorkerOptions } from '@clipit/worker-kit';
import type { Job } from 'bullmq';
import type { WebhookDeliveryHandler } from '../jobs/webhook-delivery.handler.js';
import { webhookJobs } from '../metrics.js';

/** What a finished attempt leaves as its BullMQ return value (the event carries the rest). */
export interface WebhookDeliveryResult {
  eventId: string;
  ok: boolean;
  statusCode: number | null;
}

export interface WebhookQueueWorkerOptions extends QueueWorkerOptions {
  handler: WebhookDeliveryHandler;
}

/**
 * The webhook queue's worker: each job is one attempt, handed to the handler. An endpoint that fails is an
 * outcome (the job completes, counted `undelivered`), never a retry of the job: the retries are developer's.
 * What every worker does alike (a decided outcome kept and published again while NATS is away, shutdown drain,
 * Redis outages, retries of the worker's own failures) is the worker kit's QueueWorker.
 */
export class WebhookQueueWorker extends QueueWorker<WebhookDeliveryJob, WebhookDeliveryResult> {
  private readonly handler: WebhookDeliveryHandler;

  constructor(opts: WebhookQueueWorkerOptions) {
    super(opts, { queue: WEBHOOK_QUEUE, label: 'webhook queue worker', metrics: webhookJobs });
    this.handler = opts.handler;
  }

  protected async runJob(
    job: Job<WebhookDeliveryJob, WebhookDeliveryResult>,
    signal: AbortSignal,
  ): Promise<JobDone<WebhookDeliveryResult>> {
    const event = await this.handler.process(job, signal);
    const { ok, statusCode } = event.data;
    return { label: ok ? 'delivered' : 'undelivered', result: { eventId: event.id, ok, statusCode } };
  }

  /** An earlier run may have decided (the endpoint answered) before its worker died: state it once. */
  protected override failedWithoutRunning(job: Job<WebhookDeliveryJob, WebhookDeliveryResult>): Promise<unknown> {
    return this.handler.finishRecorded(job);
  }
}
