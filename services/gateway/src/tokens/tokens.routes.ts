import { TOKEN_MESSAGES as T } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN, SERVICE_UNAVAILABLE } from '../http/messages.js';
import { createTokenBody, myTokenListSchema, myTokenSchema, updateTokenBody } from './tokens.schemas.js';

const SIGNED_IN = { status: 401, description: `'${NOT_SIGNED_IN}'` } as const;
const UNAVAILABLE = { status: 503, description: `'${SERVICE_UNAVAILABLE}': identity is away` } as const;
const RULES = `The first broken rule in form order: '${T.nameRequired}', '${T.nameLong}', '${T.pumpFunLinkInvalid}', '${T.descriptionLong}', "${T.isActiveInvalid}"`;

export const tokenRoutes = {
  myTokens: {
    method: 'GET',
    path: '/api/tokens/mine',
    tag: 'tokens',
    summary: 'The signed-in streamer’s tokens, active or not, newest first',
    session: true,
    response: myTokenListSchema,
    errors: [SIGNED_IN, { status: 403, description: `'${T.streamersOnly}'` }, UNAVAILABLE],
  },
  createToken: {
    method: 'POST',
    path: '/api/tokens',
    tag: 'tokens',
    summary: 'A streamer adds a token (spec 02 §5 "Token"); active unless isActive is false',
    session: true,
    status: 201,
    body: createTokenBody,
    response: myTokenSchema,
    errors: [
      { status: 400, description: `${RULES}, or 'Unknown field: …'` },
      SIGNED_IN,
      { status: 403, description: `'${T.streamersOnly}', or ${CROSS_SITE_REFUSED}` },
      UNAVAILABLE,
    ],
  },
  updateToken: {
    method: 'PATCH',
    path: '/api/tokens/:id',
    tag: 'tokens',
    summary: 'A streamer changes one of their tokens: only the fields sent change (isActive false takes it out of GET /api/tokens)',
    session: true,
    params: { id: 'The token’s id (uuid)' },
    body: updateTokenBody,
    response: myTokenSchema,
    errors: [
      { status: 400, description: `${RULES} (of the fields sent), or 'Unknown field: …'` },
      SIGNED_IN,
      { status: 403, description: `'${T.streamersOnly}', '${T.notOwner}', or ${CROSS_SITE_REFUSED}` },
      { status: 404, description: "'Token not found'" },
      UNAVAILABLE,
    ],
  },
} satisfies Record<string, EndpointDef>;
