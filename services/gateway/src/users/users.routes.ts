import { WALLET_MESSAGES } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN } from '../http/messages.js';
import { currentUserSchema, updateProfileBody } from './users.schemas.js';

const currentUser = {
  tag: 'users',
  session: true,
  response: currentUserSchema,
  errors: [
    { status: 401, description: `'${NOT_SIGNED_IN}'` },
    { status: 503, description: 'Service temporarily unavailable' },
  ],
} as const;

export const usersRoutes = {
  me: { method: 'GET', path: '/api/user/me', summary: 'The signed-in user', ...currentUser },
  authUser: { method: 'GET', path: '/api/auth/user', summary: 'The signed-in user (same answer as /api/user/me)', ...currentUser },
  updateProfile: {
    method: 'PATCH',
    path: '/api/user/profile',
    tag: 'users',
    summary: "Set the signed-in user's Solana wallet address",
    session: true,
    body: updateProfileBody,
    response: currentUserSchema,
    errors: [
      { status: 400, description: `'${WALLET_MESSAGES.required}', '${WALLET_MESSAGES.invalid}'` },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 413, description: 'Request body is too large' },
      { status: 415, description: 'Unsupported content type' },
      { status: 503, description: 'Service temporarily unavailable' },
    ],
  },
} satisfies Record<string, EndpointDef>;
