import { GatewayModule } from './app.module.js';
import { API_VERSION, buildOpenApiDocument, type ApiDocument } from './docs/openapi.js';
import { controllersOf, endpointsOf } from './docs/route-table.js';

/**
 * The document GET /api/docs serves, built from the module tree's route declarations without starting
 * the gateway (no server, no Redis, no gRPC): what `npm run web-api-types` commits and types the web apps from.
 */
export function offlineOpenApiDocument(document: ApiDocument = 'site'): Record<string, unknown> {
  // The module tree alone: routes do not depend on configuration, and the document must not either.
  return buildOpenApiDocument(endpointsOf(controllersOf(GatewayModule)), { version: API_VERSION, document });
}
