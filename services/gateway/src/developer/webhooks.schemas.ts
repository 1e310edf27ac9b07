import type { developerV1 } from '@clipit/contracts';
import { WEBHOOK_EVENTS, WEBHOOK_MESSAGES } from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';

// Webhook endpoints (ADR 0053). The rules (https, no private address, events, 10 endpoints) are
// developer's, in @clipit/field-rules: these check shapes only, so the owner's words reach the person.

/** POST /api/webhooks */
export const createWebhookBody = strictBody({
  url: z.string({ error: 'url must be text' }).max(10_000, WEBHOOK_MESSAGES.urlTooLong).nullish(),
  events: z
    .array(z.string({ error: WEBHOOK_MESSAGES.badEvent }).max(100, WEBHOOK_MESSAGES.badEvent), { error: WEBHOOK_MESSAGES.eventsRequired })
    .max(WEBHOOK_EVENTS.length * 4, WEBHOOK_MESSAGES.badEvent)
    .nullish(),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

const eventsField = z.array(z.enum(WEBHOOK_EVENTS)).meta({ description: 'The events sent to it' });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: eventsField,
    createdAt: z.string(),
    disabledAt: z.string().nullable().meta({ description: 'Set when it was disabled after its deliveries failed for 3 days' }),
    disabledReason: z.string().nullable().meta({ description: 'Why: since when it failed, and its last failure' }),
    failingSince: z.string().nullable().meta({ description: 'Since when its deliveries have been failing; null while they succeed' }),
    previousSecretUntil: z
      .string()
      .nullable()
      .meta({ description: 'Until when the secret a rotation replaced still signs beside the new one' }),
    pendingDeliveries: z.number().int().meta({ description: 'Deliveries waiting to be sent, in order' }),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointJson = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) }).meta({ id: 'WebhookEndpointList' });

/** An endpoint with its signing secret: the answer to making one, or to rotating its secret (told once). */
export const webhookEndpointWithSecretSchema = z
  .object({
    endpoint: webhookEndpointSchema,
    secret: z
      .string()
      .meta({ description: '`whsec_` and 24 random bytes in base64: verify each delivery with it (Standard Webhooks); shown once' }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecretJson = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    messageId: z.string().meta({ description: 'webhook-id: the same on every attempt and on a redelivery, so a receiver drops repeats' }),
    eventType: z.enum(WEBHOOK_EVENTS),
    status: z
      .enum(['pending', 'delivered'])
      .meta({ description: 'pending: waiting, or being retried (30 s, doubling, at most 6 h apart)' }),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable().meta({ description: 'Why the last attempt got no answer (refused, timed out, address not allowed)' }),
    latencyMs: z.number().int().nullable(),
    responseExcerpt: z.string().nullable().meta({ description: "The first 1,024 characters of the last answer's body" }),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    payload: z.string().meta({ description: 'The JSON body sent, as signed' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryJson = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = z
  .object({ deliveries: z.array(webhookDeliverySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryPage' });
export type WebhookDeliveryPageJson = z.infer<typeof webhookDeliveryPageSchema>;

export function toWebhookEndpointJson(e: developerV1.Endpoint): WebhookEndpointJson {
  return {
    id: e.id,
    url: e.url,
    events: e.events as WebhookEndpointJson['events'],
    createdAt: e.createdAt,
    disabledAt: e.disabledAt ?? null,
    disabledReason: e.disabledReason ?? null,
    failingSince: e.failingSince ?? null,
    previousSecretUntil: e.previousSecretUntil ?? null,
    pendingDeliveries: e.pendingDeliveries,
  };
}

export function toWebhookEndpointWithSecretJson(created: developerV1.CreatedEndpoint): WebhookEndpointWithSecretJson {
  return { endpoint: toWebhookEndpointJson(created.endpoint!), secret: created.secret };
}

export function toWebhookDeliveryJson(d: developerV1.Delivery): WebhookDeliveryJson {
  return {
    id: d.id,
    messageId: d.messageId,
    eventType: d.eventType as WebhookDeliveryJson['eventType'],
    status: d.status as WebhookDeliveryJson['status'],
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode ?? null,
    lastError: d.lastError ?? null,
    latencyMs: d.latencyMs ?? null,
    responseExcerpt: d.responseExcerpt ?? null,
    createdAt: d.createdAt,
    lastAttemptAt: d.lastAttemptAt ?? null,
    deliveredAt: d.deliveredAt ?? null,
    nextAttemptAt: d.nextAttemptAt ?? null,
    payload: d.payload,
  };
}
