import { API_KEY_MESSAGES } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN } from '../http/messages.js';
import { apiKeyListSchema, createdKeySchema, createKeyBody } from './keys.schemas.js';

const developerAway = { status: 503, description: 'Service temporarily unavailable' } as const;

/** API keys (ADR 0053): the signed-in user's own, made, listed and revoked from the dashboard. */
export const keyRoutes = {
  create: {
    method: 'POST',
    path: '/api/keys',
    tag: 'developer',
    summary:
      'Make an API key for the versioned read API (/api/v1) with a name, scopes and an optional expiry: the answer is the only time the key itself is shown; it is stored hashed',
    session: true,
    status: 201,
    body: createKeyBody,
    response: createdKeySchema,
    errors: [
      {
        status: 400,
        description: `'${API_KEY_MESSAGES.nameRequired}', '${API_KEY_MESSAGES.nameTooLong}', '${API_KEY_MESSAGES.scopesRequired}', '${API_KEY_MESSAGES.badScope}', '${API_KEY_MESSAGES.badExpiry}', '${API_KEY_MESSAGES.expiryPast}', '${API_KEY_MESSAGES.expiryTooFar}', 'Unknown field: …'`,
      },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 409, description: `'${API_KEY_MESSAGES.tooManyKeys}'` },
      developerAway,
    ],
  },
  list: {
    method: 'GET',
    path: '/api/keys',
    tag: 'developer',
    summary: "The signed-in user's API keys, newest first, with their prefix, scopes, expiry, creation and last use (never the key)",
    session: true,
    response: apiKeyListSchema,
    errors: [{ status: 401, description: `'${NOT_SIGNED_IN}'` }, developerAway],
  },
  revoke: {
    method: 'DELETE',
    path: '/api/keys/:id',
    tag: 'developer',
    summary: 'Revoke one of your API keys: it is refused at once, on every gateway replica within 1 s',
    params: { id: 'The key id (uuid)' },
    session: true,
    status: 204,
    successDescription: 'Revoked',
    errors: [
      { status: 400, description: `'${API_KEY_MESSAGES.invalidKeyId}'` },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 404, description: `'${API_KEY_MESSAGES.keyNotFound}': unknown, revoked before, or not yours` },
      developerAway,
    ],
  },
} satisfies Record<string, EndpointDef>;
