import type { EventData, EventEnvelope } from '@clipit/contracts';
import { CONFIG, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { DeveloperConfig } from '../config.js';
import { webhookOf, type WebhookSourceType } from '../domain/webhook-payloads.js';
import { disabledReason, retryDelayMs } from '../domain/webhook-rules.js';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository.js';
import { WebhookEndpointRepository } from '../repositories/webhook-endpoint.repository.js';

/**
 * The delivery log's writes from the bus (ADR 0053), each in the transaction of its inbox row, so an event
 * is turned into deliveries once and an attempt's outcome applied once:
 * - a platform event a webhook is made of: one pending delivery per endpoint of its owner subscribed to it;
 * - webhook.attempted: the attempt's outcome; a failure's next attempt after the backoff, and an endpoint
 *   failing for WEBHOOK_DISABLE_AFTER_MS disabled (its owner sees why in the dashboard).
 */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    @Inject(CONFIG) private readonly config: DeveloperConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** An event's deliveries: none when its owner has no endpoint subscribed to it. */
  async onPlatformEvent<T extends WebhookSourceType>(event: EventEnvelope<T, EventData<T>>, tx: EntityManager): Promise<void> {
    const message = webhookOf(event);
    const subscribed = await this.endpoints.subscribedTo(tx, message.ownerId, message.type);
    const at = new Date();
    for (const endpoint of subscribed) {
      await this.deliveries.insert(tx, {
        endpointId: endpoint.id,
        messageId: event.id,
        eventType: message.type,
        payload: message.body,
        occurredAt: new Date(event.occurredAt),
        at,
      });
    }
  }

  /**
   * One attempt's outcome. An outcome for another attempt than the one awaited (a repeat, a stale job) changes
   * nothing. `endpointAtFault: false` (an attempt the worker could not make at all): the next attempt follows the
   * backoff, but the endpoint is not counted as failing, so the platform's own fault never disables it.
   */
  async onAttempted(data: EventData<'webhook.attempted'>, tx: EntityManager, { endpointAtFault = true } = {}): Promise<void> {
    const delivery = await this.deliveries.lock(tx, data.deliveryId);
    if (!delivery || delivery.status !== 'pending' || data.attempt !== delivery.attempts + 1) return;
    const endpoint = await this.endpoints.lock(tx, delivery.endpointId);
    if (!endpoint) return;
    const at = new Date(data.at);
    const outcome = { ...data, at };
    if (data.ok) {
      await this.deliveries.recordAttempt(tx, delivery.id, outcome, null);
      await this.endpoints.markSucceeding(tx, endpoint.id);
      return;
    }
    const next = new Date(at.getTime() + retryDelayMs(data.attempt, this.config.WEBHOOK_RETRY_BASE_MS, this.config.WEBHOOK_RETRY_MAX_MS));
    await this.deliveries.recordAttempt(tx, delivery.id, outcome, next);
    if (!endpointAtFault) return;
    const failingSince = endpoint.failingSince ?? at;
    await this.endpoints.markFailing(tx, endpoint.id, failingSince);
    if (at.getTime() - failingSince.getTime() >= this.config.WEBHOOK_DISABLE_AFTER_MS && !endpoint.disabledAt) {
      await this.endpoints.disable(tx, endpoint.id, at, disabledReason(failingSince, data));
      this.log.warn({ endpointId: endpoint.id, userId: endpoint.userId }, 'webhook endpoint disabled: its deliveries failed for too long');
    }
  }
}
