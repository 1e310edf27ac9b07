import { z } from 'zod';
import type { EndpointDef } from '../http/endpoint.js';

export const docsRoutes = {
  openApi: {
    method: 'GET',
    path: '/api/docs',
    tag: 'docs',
    summary: 'This OpenAPI 3.1 document, generated from the route schemas',
    response: z.record(z.string(), z.unknown()).describe('OpenAPI 3.1 document'),
  },
  openApiV1: {
    method: 'GET',
    path: '/api/docs/v1',
    tag: 'docs',
    summary: 'The OpenAPI 3.1 document of the versioned read API (/api/v1, for programs with an API key), generated from its route schemas',
    response: z.record(z.string(), z.unknown()).describe('OpenAPI 3.1 document'),
  },
} satisfies Record<string, EndpointDef>;
