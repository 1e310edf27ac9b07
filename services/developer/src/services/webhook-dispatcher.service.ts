import { CONFIG, LOGGER, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DeveloperConfig } from '../config.js';
import type { DueDelivery } from '../domain/webhook-rows.js';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository.js';
import { WEBHOOK_QUEUE_PORT, type WebhookQueuePort } from '../webhook-queue.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';

/** What a delivery's log says of an attempt the worker could not make at all. */
export const ATTEMPT_NOT_MADE = 'The delivery could not be sent (the webhook worker failed on it); it will be tried again';

/** The most attempts queued in one round; the next round takes the rest. */
const ROUND = 200;

/**
 * Turns due deliveries into the worker's jobs (ADR 0053): for each enabled endpoint, its oldest pending
 * delivery, once its next attempt is due, one attempt at a time (so an endpoint's deliveries arrive in
 * order, a later one waiting behind a failing one). Runs after every applied event (`kick`) and on a timer
 * (the backstop: a retry's time has come, Redis was away, the kick was lost). The job is queued first and
 * noted after: queueing again the same attempt adds nothing, so a crash between the two costs nothing. An
 * attempt queued long ago with no outcome is looked at: its job gone (Redis lost it), it is queued again; its
 * job failed (the worker could not make it), the attempt counts as a failed one and the next follows the backoff.
 */
@Injectable()
export class WebhookDispatcher implements OnModuleDestroy {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outcomes: WebhookDeliveriesService,
    private readonly transactions: TransactionRunner,
    @Inject(WEBHOOK_QUEUE_PORT) private readonly queue: WebhookQueuePort,
    @Inject(CONFIG) private readonly config: DeveloperConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleDestroy(): Promise<void> | undefined {
    this.stopped = true;
    return this.running;
  }

  /** Dispatches soon: a round under way is followed by one more, never two at once. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.dispatch()
      .then(() => undefined)
      .catch((err: unknown) => this.log.warn({ err }, 'webhook dispatch failed; the next round tries again'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** The timer's round: waits for a round under way, then runs one, and looks for lost jobs. */
  async tick(now = new Date()): Promise<void> {
    await this.running;
    await this.dispatch(now);
    await this.requeueLost(now);
  }

  /** Queues the next attempt of every due head. */
  async dispatch(now = new Date()): Promise<number> {
    const due = await this.deliveries.due(now, ROUND);
    for (const delivery of due) {
      await this.queue.enqueue(this.jobOf(delivery, now));
      await this.deliveries.markQueued(delivery.id, delivery.attempt, now);
    }
    return due.length;
  }

  /** Attempts queued longer ago than WEBHOOK_REQUEUE_AFTER_MS with no outcome: queued again, or failed, as their job went. */
  async requeueLost(now = new Date()): Promise<number> {
    const stale = await this.deliveries.queuedLongAgo(new Date(now.getTime() - this.config.WEBHOOK_REQUEUE_AFTER_MS), ROUND);
    let mended = 0;
    for (const delivery of stale) {
      const state = await this.queue.stateOf(delivery.id, delivery.attempt);
      if (state === 'failed')
        await this.transactions.run((tx) => this.outcomes.onAttempted(notMade(delivery, now), tx, { endpointAtFault: false }));
      else {
        if (state === 'missing') await this.queue.enqueue(this.jobOf(delivery, now));
        await this.deliveries.touchQueued(delivery.id, now);
      }
      if (state !== 'queued') mended += 1;
    }
    if (mended > 0) this.log.warn({ mended }, 'webhook attempts whose jobs were lost or failed were queued again or counted as failed');
    return mended;
  }

  private jobOf(d: DueDelivery, now: Date) {
    const secrets = [d.sealedSecret];
    if (d.previousSealedSecret && d.previousSecretUntil && d.previousSecretUntil > now) secrets.push(d.previousSealedSecret);
    return {
      deliveryId: d.id,
      attempt: d.attempt,
      endpointId: d.endpointId,
      url: d.url,
      messageId: d.messageId,
      payload: d.payload,
      sealedSecrets: secrets,
      correlationId: `webhook:${d.id}`,
    };
  }
}

/** The outcome of an attempt the worker could not make (its job failed): a failure with no answer. */
function notMade(d: DueDelivery, at: Date) {
  return {
    deliveryId: d.id,
    attempt: d.attempt,
    endpointId: d.endpointId,
    ok: false,
    statusCode: null,
    latencyMs: 0,
    error: ATTEMPT_NOT_MADE,
    responseExcerpt: '',
    at: at.toISOString(),
    version: 'developer',
  };
}
