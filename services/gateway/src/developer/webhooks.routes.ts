import { WEBHOOK_MESSAGES } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN } from '../http/messages.js';
import { PAGE_QUERY_DOCS } from '../http/paging.js';
import {
  createWebhookBody,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from './webhooks.schemas.js';

const developerAway = { status: 503, description: 'Service temporarily unavailable' } as const;
const signedIn = { status: 401, description: `'${NOT_SIGNED_IN}'` } as const;
const crossSite = { status: 403, description: CROSS_SITE_REFUSED } as const;
const endpointParam = { id: 'The endpoint id (uuid)' };
const badEndpoint = { status: 400, description: `'${WEBHOOK_MESSAGES.invalidEndpointId}'` } as const;
const noEndpoint = { status: 404, description: `'${WEBHOOK_MESSAGES.endpointNotFound}': unknown, or not yours` } as const;

/** Webhook endpoints (ADR 0053): the signed-in user's own, from the dashboard. */
export const webhookRoutes = {
  create: {
    method: 'POST',
    path: '/api/webhooks',
    tag: 'developer',
    summary:
      'Make a webhook endpoint: an https URL on the public internet and the events to send it. The answer carries its signing secret, shown once',
    session: true,
    status: 201,
    body: createWebhookBody,
    response: webhookEndpointWithSecretSchema,
    errors: [
      {
        status: 400,
        description: `'${WEBHOOK_MESSAGES.urlRequired}', '${WEBHOOK_MESSAGES.urlInvalid}', '${WEBHOOK_MESSAGES.urlNotHttps}', '${WEBHOOK_MESSAGES.urlPrivate}', '${WEBHOOK_MESSAGES.urlCredentials}', '${WEBHOOK_MESSAGES.urlTooLong}', '${WEBHOOK_MESSAGES.eventsRequired}', '${WEBHOOK_MESSAGES.badEvent}', 'Unknown field: …'`,
      },
      signedIn,
      crossSite,
      { status: 409, description: `'${WEBHOOK_MESSAGES.tooManyEndpoints}'` },
      developerAway,
    ],
  },
  list: {
    method: 'GET',
    path: '/api/webhooks',
    tag: 'developer',
    summary:
      "The signed-in user's webhook endpoints, newest first, each with its state: disabled after failing for 3 days (and why), failing since, deliveries waiting",
    session: true,
    response: webhookEndpointListSchema,
    errors: [signedIn, developerAway],
  },
  delete: {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    tag: 'developer',
    summary: 'Delete a webhook endpoint and its delivery log: nothing more is sent to it',
    params: endpointParam,
    session: true,
    status: 204,
    successDescription: 'Deleted',
    errors: [badEndpoint, signedIn, crossSite, noEndpoint, developerAway],
  },
  rotateSecret: {
    method: 'POST',
    path: '/api/webhooks/:id/rotate-secret',
    tag: 'developer',
    summary: 'A new signing secret, shown once; for 24 hours each delivery is signed with the old one too, so receivers can switch',
    params: endpointParam,
    session: true,
    response: webhookEndpointWithSecretSchema,
    errors: [badEndpoint, signedIn, crossSite, noEndpoint, developerAway],
  },
  enable: {
    method: 'POST',
    path: '/api/webhooks/:id/enable',
    tag: 'developer',
    summary: 'Enable an endpoint disabled after failing: what waited for it is sent, in order',
    params: endpointParam,
    session: true,
    response: webhookEndpointSchema,
    errors: [
      badEndpoint,
      signedIn,
      crossSite,
      noEndpoint,
      { status: 409, description: `'${WEBHOOK_MESSAGES.notDisabled}'` },
      developerAway,
    ],
  },
  deliveries: {
    method: 'GET',
    path: '/api/webhooks/:id/deliveries',
    tag: 'developer',
    summary:
      "An endpoint's delivery log, newest first (50 a page unless asked, at most 100): status, attempts, latency and the start of the answer",
    params: endpointParam,
    session: true,
    query: PAGE_QUERY_DOCS,
    response: webhookDeliveryPageSchema,
    errors: [
      {
        status: 400,
        description: `'${WEBHOOK_MESSAGES.invalidEndpointId}', 'limit must be a whole number from 1 to 100', 'Invalid cursor'`,
      },
      signedIn,
      noEndpoint,
      developerAway,
    ],
  },
  redeliver: {
    method: 'POST',
    path: '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    tag: 'developer',
    summary: 'Send a delivery again, with the same webhook-id and body, after whatever waits for the endpoint',
    params: { ...endpointParam, deliveryId: 'The delivery id (uuid)' },
    session: true,
    status: 202,
    response: webhookDeliverySchema,
    errors: [
      { status: 400, description: `'${WEBHOOK_MESSAGES.invalidEndpointId}', '${WEBHOOK_MESSAGES.invalidDeliveryId}'` },
      signedIn,
      crossSite,
      { status: 404, description: `'${WEBHOOK_MESSAGES.endpointNotFound}', '${WEBHOOK_MESSAGES.deliveryNotFound}'` },
      developerAway,
    ],
  },
} satisfies Record<string, EndpointDef>;
