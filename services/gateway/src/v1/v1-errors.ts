import { API_KEY_MESSAGES, type ApiKeyScope } from '@clipit/field-rules';
import type { ErrorDoc } from '../http/endpoint.js';
import { limitExample } from '../http/limits.js';

/** The refusals every /api/v1 route can give, besides its own: the key's, the scope's and the rate limit's. */
export function v1Errors(scope: ApiKeyScope, own: readonly ErrorDoc[] = []): ErrorDoc[] {
  return [
    ...own,
    {
      status: 401,
      description: `'${API_KEY_MESSAGES.keyMissing}', '${API_KEY_MESSAGES.keyRefused}' (malformed, unknown, revoked or expired; a session cookie does not count here), with WWW-Authenticate: Bearer`,
    },
    { status: 403, description: `'${API_KEY_MESSAGES.scopeMissing(scope)}'` },
    { status: 429, description: `'${limitExample('api-key')}', with Retry-After (per key, shared by every replica)` },
    { status: 503, description: 'Service temporarily unavailable' },
  ];
}
