import type { EndpointDef } from '../http/endpoint.js';
import { streamerListSchema, tokenListSchema } from './catalog.schemas.js';

const unavailable = [{ status: 503, description: 'Service temporarily unavailable' }];

export const catalogRoutes = {
  tokens: {
    method: 'GET',
    path: '/api/tokens',
    tag: 'catalog',
    summary: "Streamers' tokens a clip can be tagged with",
    response: tokenListSchema,
    errors: unavailable,
  },
  streamers: {
    method: 'GET',
    path: '/api/streamers',
    tag: 'catalog',
    summary: 'Streamers',
    response: streamerListSchema,
    errors: unavailable,
  },
} satisfies Record<string, EndpointDef>;
