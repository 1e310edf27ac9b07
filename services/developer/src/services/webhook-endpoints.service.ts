import { randomUUID } from 'node:crypto';
import type { developerV1 } from '@clipit/contracts';
import {
  checkWebhookEvents,
  checkWebhookUrl,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOKS_PER_USER_MAX,
} from '@clipit/field-rules';
import {
  CONFIG,
  decodeCursor,
  failedPrecondition,
  invalid,
  keysetPage,
  notFound,
  pageSize,
  sealingKey,
  sealSecret,
  TransactionRunner,
  uuidOrUndefined,
} from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { DeveloperConfig } from '../config.js';
import { checked, userIdOf } from '../domain/checks.js';
import { toDeliveryMessage, toEndpointMessage } from '../domain/webhook-messages.js';
import { newWebhookSecret } from '../domain/webhook-rules.js';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository.js';
import type { EndpointRow } from '../domain/webhook-rows.js';
import { WebhookEndpointRepository } from '../repositories/webhook-endpoint.repository.js';
import { WebhookDispatcher } from './webhook-dispatcher.service.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 100;

function idOf(raw: string, message: string): string {
  const id = uuidOrUndefined(raw);
  if (!id) throw invalid(message);
  return id;
}

/**
 * Webhook endpoints (ADR 0053), each its owner's alone: made with a signing secret told once (kept sealed
 * under WEBHOOK_SECRET_KEY), listed with their state, deleted, given a new secret (the old one signs beside
 * it for 24 hours), enabled again after being disabled; and their delivery log, from which a delivery can
 * be sent again by hand. The rules and words are @clipit/field-rules' (webhook.ts).
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly key: Buffer;

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly transactions: TransactionRunner,
    @Inject(CONFIG) private readonly config: DeveloperConfig,
  ) {
    this.key = sealingKey(config.WEBHOOK_SECRET_KEY);
  }

  /** Makes an endpoint; the user's endpoints are counted under a lock on the user, so creates at once cannot pass 10. */
  async create(request: developerV1.CreateEndpointRequest, now = new Date()): Promise<developerV1.CreatedEndpoint> {
    const userId = userIdOf(request.userId);
    const { url } = checked(checkWebhookUrl(request.url, { allowLoopback: this.config.WEBHOOK_ALLOW_LOOPBACK }));
    const { events } = checked(checkWebhookEvents(request.events));
    const secret = newWebhookSecret();
    const id = randomUUID();
    await this.transactions.run(async (tx) => {
      await this.endpoints.lockUser(tx, userId);
      if ((await this.endpoints.countOf(tx, userId)) >= WEBHOOKS_PER_USER_MAX) throw failedPrecondition(WEBHOOK_MESSAGES.tooManyEndpoints);
      await this.endpoints.insert(tx, { id, userId, url, events, sealedSecret: sealSecret(this.key, secret), createdAt: now });
    });
    return { endpoint: toEndpointMessage((await this.endpoints.findOwned(userId, id))!), secret };
  }

  async list(request: developerV1.ListEndpointsRequest): Promise<developerV1.EndpointList> {
    return { endpoints: (await this.endpoints.listOf(userIdOf(request.userId))).map((e) => toEndpointMessage(e)) };
  }

  /** Deletes the endpoint and its log; an attempt under way finds nothing to report to. */
  async delete(request: developerV1.DeleteEndpointRequest): Promise<developerV1.DeleteEndpointResponse> {
    await this.transactions.run(async (tx) => {
      const endpoint = await this.owned(request, tx);
      await this.endpoints.delete(tx, endpoint.id);
    });
    return {};
  }

  /** A new secret, told once; the current one becomes the previous, signing beside it for 24 hours. */
  async rotate(request: developerV1.RotateEndpointSecretRequest, now = new Date()): Promise<developerV1.CreatedEndpoint> {
    const secret = newWebhookSecret();
    const endpoint = await this.transactions.run(async (tx) => {
      const current = await this.owned(request, tx);
      const until = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3600_000);
      await this.endpoints.rotate(tx, current.id, sealSecret(this.key, secret), current.sealedSecret, until);
      return current;
    });
    return { endpoint: toEndpointMessage((await this.endpoints.findOwned(endpoint.userId, endpoint.id))!), secret };
  }

  /** Enables a disabled endpoint and sends what waited for it, in order, starting now. */
  async enable(request: developerV1.EnableEndpointRequest, now = new Date()): Promise<developerV1.Endpoint> {
    const endpoint = await this.transactions.run(async (tx) => {
      const current = await this.owned(request, tx);
      if (!current.disabledAt) throw failedPrecondition(WEBHOOK_MESSAGES.notDisabled);
      await this.endpoints.enable(tx, current.id);
      await this.deliveries.headDueNow(tx, current.id, now);
      return current;
    });
    this.dispatcher.kick();
    return toEndpointMessage((await this.endpoints.findOwned(endpoint.userId, endpoint.id))!);
  }

  /** The endpoint's deliveries, newest first. */
  async deliveriesOf(request: developerV1.ListDeliveriesRequest): Promise<developerV1.DeliveryPage> {
    const endpoint = await this.owned(request);
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const rows = await this.deliveries.page(endpoint.id, size + 1, before);
    const { page, nextCursor } = keysetPage(rows, size);
    return { deliveries: page.map(toDeliveryMessage), ...(nextCursor ? { nextCursor } : {}) };
  }

  /** Sends a delivery again, with its webhook-id and body, after whatever waits for the endpoint. */
  async redeliver(request: developerV1.RedeliverRequest, now = new Date()): Promise<developerV1.Delivery> {
    const endpoint = await this.owned(request);
    const deliveryId = idOf(request.deliveryId, WEBHOOK_MESSAGES.invalidDeliveryId);
    const original = await this.deliveries.findOf(endpoint.id, deliveryId);
    if (!original) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    const id = await this.transactions.run((tx) =>
      this.deliveries.insert(tx, {
        endpointId: endpoint.id,
        messageId: original.messageId,
        eventType: original.eventType,
        payload: original.payload,
        // Sent again now: after whatever waits for the endpoint.
        occurredAt: now,
        at: now,
      }),
    );
    this.dispatcher.kick();
    return toDeliveryMessage((await this.deliveries.findOf(endpoint.id, id))!);
  }

  /** The user's endpoint named in the request (locked when `tx` is given); NOT_FOUND for anyone else's. */
  private async owned(
    request: { userId: string; endpointId: string },
    tx?: Parameters<WebhookEndpointRepository['lock']>[0],
  ): Promise<EndpointRow> {
    const userId = userIdOf(request.userId);
    const id = idOf(request.endpointId, WEBHOOK_MESSAGES.invalidEndpointId);
    const endpoint = await this.endpoints.findOwned(userId, id, tx);
    if (!endpoint) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
    return endpoint;
  }
}
