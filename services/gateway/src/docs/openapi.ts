import { API_KEY_MESSAGES } from '@clipit/field-rules';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { EndpointDef, ErrorDoc } from '../http/endpoint.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import {
  BODY_NOT_JSON,
  BODY_NOT_OBJECT,
  BODY_TOO_LARGE,
  CROSS_SITE_REFUSED,
  NOT_SIGNED_IN,
  ADMIN_TOKEN_MISSING,
  SOMETHING_WENT_WRONG,
  UNSUPPORTED_CONTENT_TYPE,
} from '../http/messages.js';

type JsonObject = Record<string, unknown>;

/** info.version of the document. */
export const API_VERSION = '1.0.0';

/**
 * The two documents the gateway's routes make (ADR 0053): the site's API (cookies, the web apps' calls) and
 * the versioned read API for programs (`/api/v1`, API keys), each with its own routes and schemes.
 */
export type ApiDocument = 'site' | 'v1';

/** Which document a route belongs in: the one its authentication is made for. */
export const documentOf = (def: EndpointDef): ApiDocument => (def.apiKey ? 'v1' : 'site');

/**
 * Route paths in OpenAPI's template form: `/api/x/:id` → `/api/x/{id}`, and a trailing wildcard
 * (`/media/*`) → the route's one declared parameter (`/media/{key}`).
 */
export function openApiPath(path: string, params: Record<string, string> = {}): string {
  const wildcardName = Object.keys(params)[0] ?? 'path';
  return path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, `/{${wildcardName}}`);
}

/** The document's named schemas (components.schemas), filled while the operations are converted. */
type Components = Record<string, JsonObject>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/** zod's local `#/$defs/X` references, pointed at the document's components instead. */
function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith(DEFS) ? COMPONENTS + v.slice(DEFS.length) : toComponentRefs(v),
    ]),
  );
}

/**
 * A route schema as JSON Schema. Schemas named with zod's `.meta({ id })` (the API's shapes:
 * `CurrentUser`, `Submission`, …) become components referenced by `$ref`, so a client generated
 * from the document gets one type per shape, under that name.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Components): JsonObject {
  const {
    $schema: _dialect,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonObject>)) {
    const component = toComponentRefs(def) as JsonObject;
    // One name, one shape: an id given to two schemas, or to one read both as a request and as an answer, fails here.
    if (components[name] && !isDeepStrictEqual(components[name], component)) {
      throw new Error(`Two different schemas are named ${name} in the OpenAPI document; give each its own id`);
    }
    components[name] = component;
  }
  return toComponentRefs(rest) as JsonObject;
}

/** The schema a `$ref` names, or the schema itself. */
function resolved(schema: JsonObject, components: Components): JsonObject {
  const ref = schema['$ref'];
  return typeof ref === 'string' && ref.startsWith(COMPONENTS) ? (components[ref.slice(COMPONENTS.length)] ?? schema) : schema;
}

/** Every non-OK answer's body: a message a person can act on (text/plain; charset=utf-8). */
const ERROR_MESSAGE = 'ErrorMessage';
const errorMessageSchema = {
  type: 'string',
  minLength: 1,
  description: 'A message a person can act on; clients show it as "status: text"',
};
const plainText = (description: string) => ({ description, content: { 'text/plain': { schema: { $ref: COMPONENTS + ERROR_MESSAGE } } } });

/** How a route authenticates, by the guard its declaration names: scheme name → scheme. */
export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The server-side session set by sign-up and sign-in (httpOnly, SameSite). A state-changing request that carries it must come with a same-site Origin or Referer.',
  },
  uploadToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description:
      'The secret of one upload URL (POST /api/submissions/video-upload-url, /api/user/profile-picture/upload-url, /api/user/banner/upload-url). Not cookie-bound: a write with it needs no Origin, even when the session cookie comes along.',
  },
  adminBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A short-lived signed admin token, obtained with the admin password (the admin area). Not cookie-bound: the Origin rule does not apply.',
  },
} as const;

/** The versioned read API's one scheme: the route's scope is the requirement's role. */
export const V1_SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'clipit_ followed by 36 characters',
    description:
      'An API key made in the dashboard (POST /api/keys): `Authorization: Bearer clipit_…`. Each route needs one scope of the key ' +
      '(campaigns:read, submissions:read, leaderboards:read). A session cookie is not accepted here, and a key is not accepted anywhere else.',
  },
} as const;

function security(def: EndpointDef): Record<string, string[]>[] {
  if (def.apiKey) return [{ apiKey: [def.apiKey] }];
  const schemes: Record<string, string[]>[] = [];
  if (def.session) schemes.push({ sessionCookie: [] });
  if (def.bearer) schemes.push({ adminBearer: [] });
  if (def.cookieless) schemes.push({ uploadToken: [] });
  return schemes;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error answers a route gives because of what its declaration says, whatever it does inside: the
 * edge's rules (NUL characters, cross-site writes, body parsing, path parameter length), the session
 * guard and the error filter. A route lists only its own refusals; these join them in the document.
 */
function impliedErrors(def: EndpointDef): ErrorDoc[] {
  const errors: ErrorDoc[] = [{ status: 400, description: 'A NUL character (U+0000) anywhere in the request' }];
  if (def.body) errors.push({ status: 400, description: `'${BODY_NOT_JSON}', '${BODY_NOT_OBJECT}'` });
  if (def.session) errors.push({ status: 401, description: `'${NOT_SIGNED_IN}'` });
  if (def.apiKey) {
    errors.push({ status: 401, description: `'${API_KEY_MESSAGES.keyMissing}', '${API_KEY_MESSAGES.keyRefused}'` });
    errors.push({ status: 403, description: `'${API_KEY_MESSAGES.scopeMissing(def.apiKey)}'` });
  }
  if (def.bearer)
    errors.push({
      status: 401,
      description: `'${ADMIN_TOKEN_MISSING}', 'Invalid admin token', 'Your admin session has expired. Enter the password again.'`,
    });
  if (STATE_CHANGING.has(def.method)) {
    errors.push({ status: 403, description: `'${CROSS_SITE_REFUSED}': a foreign Origin/Referer, or the session cookie with neither` });
  }
  if (/:\w/.test(def.path)) errors.push({ status: 414, description: 'A path parameter longer than 600 characters' });
  if (def.body) {
    errors.push({ status: 413, description: `'${BODY_TOO_LARGE}'` });
    errors.push({ status: 415, description: `'${UNSUPPORTED_CONTENT_TYPE}'` });
  }
  errors.push({ status: 500, description: `'${SOMETHING_WENT_WRONG}'` });
  return errors;
}

function requestBody(def: EndpointDef, components: Components): JsonObject | undefined {
  if (!def.body) return undefined;
  const schema = jsonSchema(def.body, 'input', components);
  const content: JsonObject = { 'application/json': { schema } };
  if (def.multipartFile) {
    const fields = resolved(schema, components);
    const properties = {
      ...(fields['properties'] as JsonObject),
      [def.multipartFile.field]: {
        type: 'string',
        contentMediaType: def.multipartFile.mediaType,
        description: def.multipartFile.description,
      },
    };
    content['multipart/form-data'] = { schema: { ...fields, properties } };
  }
  return { required: true, content };
}

function responses(def: EndpointDef, components: Components): JsonObject {
  const status = String(def.status ?? 200);
  const success: JsonObject = { description: def.successDescription ?? 'OK' };
  if (def.response) success['content'] = { 'application/json': { schema: jsonSchema(def.response, 'output', components) } };
  else if (def.successContentType) success['content'] = { [def.successContentType]: {} };
  const out: JsonObject = { [status]: success };
  const declared = def.errors ?? [];
  // A route's own text for a status comes first; an implied one joins it unless the route already says it.
  const said = (e: ErrorDoc) =>
    declared.some((d) => d.status === e.status && (d.description.includes(e.description) || e.description.includes(d.description)));
  const errors = [...declared, ...impliedErrors(def).filter((e) => !said(e))].sort((a, b) => a.status - b.status);
  for (const e of errors) {
    const key = String(e.status);
    const prev = out[key] as { description: string } | undefined;
    out[key] = plainText(prev ? `${prev.description}; ${e.description}` : e.description);
  }
  return out;
}

function operation(def: EndpointDef, operationId: string, components: Components): JsonObject {
  const op: JsonObject = { operationId, summary: def.summary, tags: [def.tag] };
  const parameters = [
    ...Object.entries(def.params ?? {}).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string' },
    })),
    ...Object.entries(def.query ?? {}).map(([name, description]) => ({
      name,
      in: 'query',
      required: false,
      description,
      schema: { type: 'string' },
    })),
  ];
  if (parameters.length > 0) op['parameters'] = parameters;
  const body = requestBody(def, components);
  if (body) op['requestBody'] = body;
  op['responses'] = responses(def, components);
  // Stated on every operation, so an open route is said to be open (`[]`), not merely left unsaid.
  op['security'] = security(def);
  return op;
}

export interface DiscoveredEndpoint {
  def: EndpointDef;
  /** Controller.method, unique in the app. */
  operationId: string;
}

/** Operational routes served by the service kit's controllers (not declared with @Endpoint); the edge's rules apply to them too. */
const edgeRefusals = {
  '400': plainText('A NUL character (U+0000) anywhere in the request'),
  '500': plainText(`'${SOMETHING_WENT_WRONG}'`),
};
const OPERATIONS: Record<string, JsonObject> = {
  '/health/live': {
    get: {
      operationId: 'healthLive',
      summary: 'Liveness: the process runs',
      tags: ['operations'],
      security: [],
      responses: { '200': { description: '{"status":"ok"}' }, ...edgeRefusals },
    },
  },
  '/health/ready': {
    get: {
      operationId: 'healthReady',
      summary: 'Readiness: Redis and identity answer',
      tags: ['operations'],
      security: [],
      responses: {
        '200': { description: 'Every check ok' },
        ...edgeRefusals,
        '503': { description: 'A dependency is down (JSON names it)' },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics (http_request_duration_seconds by route)',
      tags: ['operations'],
      security: [],
      responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': {} } }, ...edgeRefusals },
    },
  },
};

const V1_DESCRIPTION =
  "The versioned read API for programs: a streamer's campaigns, a clipper's own submissions, earnings and payouts, and the public " +
  'leaderboards. Every request carries `Authorization: Bearer clipit_…` (an API key made in the dashboard) with the scope its route names. ' +
  'Every non-2xx answer is text/plain; charset=utf-8 whose body is a message a person can act on. Lists page with `limit` (at most 100) and ' +
  "`cursor` (the previous page's `nextCursor`). Every answer has an ETag: send it back in If-None-Match and an unchanged answer is 304 " +
  'with no body. Requests are limited per key (429 with Retry-After). Within v1 fields are only ever added; a breaking change is v2.';

/** The OpenAPI 3.1 document, built from the same route declarations that register and validate the routes. */
export function buildOpenApiDocument(endpoints: DiscoveredEndpoint[], info: { version: string; document?: ApiDocument }): JsonObject {
  const which = info.document ?? 'site';
  const paths: Record<string, JsonObject> = {};
  const schemas: Components = {};
  // By path, then method: the same document whatever order the controllers were found in.
  const ordered = endpoints
    .filter(({ def }) => documentOf(def) === which)
    .sort((a, b) => a.def.path.localeCompare(b.def.path) || a.def.method.localeCompare(b.def.method));
  for (const { def, operationId } of ordered) {
    const path = openApiPath(def.path, def.params);
    paths[path] = { ...(paths[path] ?? {}), [def.method.toLowerCase()]: operation(def, operationId, schemas) };
  }
  if (which === 'v1') {
    return {
      openapi: '3.1.0',
      info: { title: 'CLIP IT API v1', version: info.version, description: V1_DESCRIPTION },
      servers: [{ url: '/' }],
      paths,
      components: {
        schemas: Object.fromEntries(
          Object.entries({ ...schemas, [ERROR_MESSAGE]: errorMessageSchema }).sort(([a], [b]) => a.localeCompare(b)),
        ),
        securitySchemes: V1_SECURITY_SCHEMES,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CLIP IT gateway API',
      version: info.version,
      description:
        'The one HTTP origin of the platform. Every non-2xx answer is text/plain; charset=utf-8 whose body is a message a person can act on. ' +
        'State-changing requests from a foreign Origin/Referer are refused (403). Every answer echoes x-correlation-id. ' +
        "Read-your-writes: a write's answer names the events it committed in the Clipit-After header (and the clipit.rw cookie, " +
        '60 s); a read that sends either back shows that write, waiting at most 250 ms for it, or else answers with Clipit-Stale: 1.',
    },
    servers: [{ url: '/' }],
    paths: { ...paths, ...OPERATIONS },
    components: {
      schemas: Object.fromEntries(
        Object.entries({ ...schemas, [ERROR_MESSAGE]: errorMessageSchema }).sort(([a], [b]) => a.localeCompare(b)),
      ),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
