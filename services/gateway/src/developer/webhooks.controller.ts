import { WEBHOOK_MESSAGES } from '@clipit/field-rules';
import { Controller, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { DEVELOPER_CLIENT, type DeveloperClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { pageQuery } from '../http/paging.js';
import { uuidParam } from '../http/path-params.js';
import { webhookRoutes } from './webhooks.routes.js';
import {
  toWebhookDeliveryJson,
  toWebhookEndpointJson,
  toWebhookEndpointWithSecretJson,
  type CreateWebhookBody,
  type WebhookDeliveryJson,
  type WebhookDeliveryPageJson,
  type WebhookEndpointJson,
  type WebhookEndpointWithSecretJson,
} from './webhooks.schemas.js';

const PAGE_MAX = 100;

/** The endpoint the path names, as the owner's call takes it. */
const ref = (session: SessionPrincipal, id: string) => ({
  userId: session.user.id,
  endpointId: uuidParam(id, WEBHOOK_MESSAGES.invalidEndpointId),
});

/** Webhook endpoints (ADR 0053): the signed-in user's own, owned by developer, which checks every rule. */
@Controller()
@UseGuards(SessionGuard)
export class WebhooksController {
  constructor(@Inject(DEVELOPER_CLIENT) private readonly developer: DeveloperClient) {}

  @Endpoint(webhookRoutes.create)
  async create(@CurrentSession() session: SessionPrincipal, @ValidBody() body: CreateWebhookBody): Promise<WebhookEndpointWithSecretJson> {
    const request = { userId: session.user.id, url: body.url ?? '', events: body.events ?? [] };
    return toWebhookEndpointWithSecretJson(await this.developer.createEndpoint(request));
  }

  @Endpoint(webhookRoutes.list)
  async list(@CurrentSession() session: SessionPrincipal): Promise<{ endpoints: WebhookEndpointJson[] }> {
    const { endpoints } = await this.developer.listEndpoints({ userId: session.user.id });
    return { endpoints: (endpoints ?? []).map(toWebhookEndpointJson) };
  }

  @Endpoint(webhookRoutes.delete)
  async delete(@CurrentSession() session: SessionPrincipal, @Param('id') id: string): Promise<void> {
    await this.developer.deleteEndpoint(ref(session, id));
  }

  @Endpoint(webhookRoutes.rotateSecret)
  async rotateSecret(@CurrentSession() session: SessionPrincipal, @Param('id') id: string): Promise<WebhookEndpointWithSecretJson> {
    return toWebhookEndpointWithSecretJson(await this.developer.rotateEndpointSecret(ref(session, id)));
  }

  @Endpoint(webhookRoutes.enable)
  async enable(@CurrentSession() session: SessionPrincipal, @Param('id') id: string): Promise<WebhookEndpointJson> {
    return toWebhookEndpointJson(await this.developer.enableEndpoint(ref(session, id)));
  }

  @Endpoint(webhookRoutes.deliveries)
  async deliveries(
    @CurrentSession() s: SessionPrincipal,
    @Param('id') id: string,
    @Query() q: Record<string, unknown>,
  ): Promise<WebhookDeliveryPageJson> {
    const page = await this.developer.listDeliveries({ ...ref(s, id), ...pageQuery(q, PAGE_MAX) });
    return { deliveries: (page.deliveries ?? []).map(toWebhookDeliveryJson), nextCursor: page.nextCursor ?? null };
  }

  @Endpoint(webhookRoutes.redeliver)
  async redeliver(
    @CurrentSession() s: SessionPrincipal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryJson> {
    const delivery = uuidParam(deliveryId, WEBHOOK_MESSAGES.invalidDeliveryId);
    return toWebhookDeliveryJson(await this.developer.redeliver({ ...ref(s, id), deliveryId: delivery }));
  }
}
