import { BadRequestException } from '@nestjs/common';
import type { ApiKeyScope } from '@clipit/field-rules';
import { DiscoveryService } from '@nestjs/core';
import type { z } from 'zod';
import { assertNoControlCharacters } from './control-characters.js';
import type { LimitName } from './limits.js';
import { BODY_NOT_OBJECT } from './messages.js';

// A route's declaration (its *.routes.ts entry) and what reads it at run time; `Endpoint()` (endpoint.ts)
// declares the Nest route from it.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An error answer a route can give, as the API reference lists it (always text/plain). */
export interface ErrorDoc {
  status: number;
  description: string;
}

/**
 * One route's contract: the Nest route is declared from it, the body is validated with its schema,
 * and GET /api/docs is generated from it, so the three cannot drift apart.
 */
export interface EndpointDef {
  method: HttpMethod;
  /** Full path as Fastify routes it (`/api/user/me`, `/media/*`). */
  path: string;
  summary: string;
  tag: string;
  /** Success status (default 200). */
  status?: number;
  /** Request body schema (JSON; also multipart when `multipartFile` is set). */
  body?: z.ZodType;
  /** The multipart field that may carry a file, besides the body fields. */
  multipartFile?: {
    field: string;
    description: string;
    /** e.g. `image/*`, `video/*`: what the API reference says the file is. */ mediaType: string;
  };
  /** Success body schema; omit for non-JSON answers and describe them in `successDescription`. */
  response?: z.ZodType;
  successDescription?: string;
  /** For answers that are not JSON (media bytes, redirects). */
  successContentType?: string;
  /** The route is behind SessionGuard: it needs the session cookie (the document's `sessionCookie` scheme). */
  session?: boolean;
  /**
   * The route authenticates by a token of its own (the upload URL's) and never acts on the session
   * cookie, so a write to it needs no Origin even when the cookie comes along (ADR 0004).
   */
  cookieless?: boolean;
  /** The route is behind AdminBearerGuard: it needs `Authorization: Bearer <admin token>` (the document's `adminBearer` scheme). */
  bearer?: boolean;
  /**
   * The route is behind ApiKeyGuard: it needs `Authorization: Bearer clipit_…` with this scope, and reads no
   * cookie (the versioned read API, /api/v1, documented on its own: the document's `apiKey` scheme).
   */
  apiKey?: ApiKeyScope;
  /**
   * A public read answered through the read cache (feed/read-cache.ts): a cached answer is sent from the
   * request hook, before the route runs. `query`: the parameters that change the answer;
   * `visitorOnly`: a request with the session cookie always reaches the route.
   */
  publicRead?: { query: readonly string[]; visitorOnly?: boolean };
  /** Path parameters (name → description). */
  params?: Record<string, string>;
  /** Optional query parameters (name → description). */
  query?: Record<string, string>;
  errors?: readonly ErrorDoc[];
  /** The rate limit the route is counted against (limits.ts): RateLimitGuard applies it after the route's guards. */
  limit?: LimitName;
}

export const EndpointMeta = DiscoveryService.createDecorator<EndpointDef>();

export function endpointOf(handler: object): EndpointDef | undefined {
  return Reflect.getMetadata(EndpointMeta.KEY, handler) as EndpointDef | undefined;
}

/**
 * Validates `body` against a schema: the first issue's message (written for people) is the 400 text.
 * A missing body counts as empty, so the client learns the first required field.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const input = body === undefined || body === null ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw new BadRequestException(BODY_NOT_OBJECT);
  // Already checked at the edge for JSON; multipart fields arrive here first.
  assertNoControlCharacters(input);
  const result = schema.safeParse(input);
  if (!result.success) throw new BadRequestException(result.error.issues[0]?.message ?? 'Invalid request body');
  return result.data;
}
