import { z } from 'zod';
import type { EndpointDef, ErrorDoc } from '../http/endpoint.js';
import { SESSION_COOKIE } from '../auth/session-cookie.js';
import { SOMETHING_WENT_WRONG } from '../http/messages.js';

type JsonObject = Record<string, unknown>;

/**
 * Route paths in OpenAPI's template form: `/api/x/:id` → `/api/x/{id}`, and a trailing wildcard
 * (`/media/*`) → the route's one declared parameter (`/media/{key}`).
 */
export function openApiPath(path: string, params: Record<string, string> = {}): string {
  const wildcardName = Object.keys(params)[0] ?? 'path';
  return path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, `/{${wildcardName}}`);
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  return rest;
}

const plainText = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

function requestBody(def: EndpointDef): JsonObject | undefined {
  if (!def.body) return undefined;
  const schema = jsonSchema(def.body, 'input');
  const content: JsonObject = { 'application/json': { schema } };
  if (def.multipartFile) {
    const properties = { ...(schema['properties'] as JsonObject), [def.multipartFile.field]: { type: 'string', contentMediaType: 'image/*', description: def.multipartFile.description } };
    content['multipart/form-data'] = { schema: { ...schema, properties } };
  }
  return { required: true, content };
}

function responses(def: EndpointDef): JsonObject {
  const status = String(def.status ?? 200);
  const success: JsonObject = { description: def.successDescription ?? 'OK' };
  if (def.response) success['content'] = { 'application/json': { schema: jsonSchema(def.response, 'output') } };
  else if (def.successContentType) success['content'] = { [def.successContentType]: {} };
  const out: JsonObject = { [status]: success };
  const errors: ErrorDoc[] = [...(def.errors ?? []), { status: 500, description: `'${SOMETHING_WENT_WRONG}'` }];
  for (const e of errors) {
    const key = String(e.status);
    const prev = out[key] as { description: string } | undefined;
    out[key] = plainText(prev ? `${prev.description}; ${e.description}` : e.description);
  }
  return out;
}

function operation(def: EndpointDef, operationId: string): JsonObject {
  const op: JsonObject = { operationId, summary: def.summary, tags: [def.tag] };
  if (def.params) {
    op['parameters'] = Object.entries(def.params).map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } }));
  }
  const body = requestBody(def);
  if (body) op['requestBody'] = body;
  op['responses'] = responses(def);
  if (def.session) op['security'] = [{ sessionCookie: [] }];
  return op;
}

export interface DiscoveredEndpoint {
  def: EndpointDef;
  /** Controller.method, unique in the app. */
  operationId: string;
}

/** Operational routes served by the service kit's controllers (not declared with @Endpoint). */
const OPERATIONS: Record<string, JsonObject> = {
  '/health/live': { get: { operationId: 'healthLive', summary: 'Liveness: the process runs', tags: ['operations'], responses: { '200': { description: '{"status":"ok"}' } } } },
  '/health/ready': {
    get: {
      operationId: 'healthReady',
      summary: 'Readiness: Redis and identity answer',
      tags: ['operations'],
      responses: { '200': { description: 'Every check ok' }, '503': { description: 'A dependency is down (JSON names it)' } },
    },
  },
  '/metrics': { get: { operationId: 'metrics', summary: 'Prometheus metrics (http_request_duration_seconds by route)', tags: ['operations'], responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': {} } } } } },
};

/** The OpenAPI 3.1 document, built from the same route declarations that register and validate the routes. */
export function buildOpenApiDocument(endpoints: DiscoveredEndpoint[], info: { version: string }): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const { def, operationId } of [...endpoints].sort((a, b) => a.def.path.localeCompare(b.def.path))) {
    const path = openApiPath(def.path, def.params);
    paths[path] = { ...(paths[path] ?? {}), [def.method.toLowerCase()]: operation(def, operationId) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CLIP IT gateway API',
      version: info.version,
      description:
        'The one HTTP origin of the platform. Every non-2xx answer is text/plain; charset=utf-8 whose body is a message a person can act on. ' +
        'State-changing requests from a foreign Origin/Referer are refused (403). Every answer echoes x-correlation-id.',
    },
    servers: [{ url: '/' }],
    paths: { ...paths, ...OPERATIONS },
    components: { securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } } },
  };
}
