import { CORRELATION_HEADER, metricOnce, metricsRegistry, sanitizeCorrelationId, tagCorrelationId } from '@clipit/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Counter } from 'prom-client';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import type { EndpointDef } from '../http/endpoint.js';
import type { FrontHandler } from '../http/front-door.js';
import type { RequestLog } from '../http/request-log.js';
import { encodedJson, type EncodableJson } from '../http/json-compression.js';
import { hasPendingWrites } from '../http/pending-writes.js';
import { matchesEtag, readKey, sendJson, varyOf, type CachedRead, type PublicReadCache } from './read-cache.js';

const sessionCookie = `${SESSION_COOKIE}=`;

const frontAnswers = metricOnce(
  'gateway_front_answers_total',
  () =>
    new Counter({
      name: 'gateway_front_answers_total',
      help: 'Public reads answered from the read cache before the HTTP framework',
      registers: [metricsRegistry],
    }),
);

/** The cache key of a public read on `route`. */
export function keyOf(request: FastifyRequest, route: EndpointDef): string {
  return readKey(request, route.publicRead!.query);
}

/**
 * Sends a shared public read (from the cache, or from one call to the feed service) and notes its URL,
 * which the route has now checked, so that the next request for the same URL is answered at the front.
 */
export function sendSharedRead(
  request: FastifyRequest,
  reply: FastifyReply,
  route: EndpointDef,
  key: string,
  read: CachedRead,
  cache: PublicReadCache,
): FastifyReply {
  const pattern = request.routeOptions.url;
  if (request.method === 'GET' && pattern !== undefined)
    cache.remember(request.raw.url ?? request.url, { key, route: pattern, visitorOnly: route.publicRead!.visitorOnly === true });
  return sendJson(request, reply, read, true);
}

/**
 * The front of the read path (ADR 0022): a GET for a URL a public-read route has already answered with
 * a shared answer, still in the read cache, is answered from the cached bytes before Fastify and Nest
 * see it, with the headers the route sends (correlation id, the /api security headers, ETag, 304), one
 * request-log line and the latency histogram. Anything else (a miss, another URL, a body, a signed-in
 * request on a route whose answer depends on the user, a request waiting for its own write) goes on to
 * Fastify (signed-in reads have a front of their own, signed-in-front.ts). A URL is only remembered
 * once the route's schema and checks passed it, so the front never answers what the route would refuse.
 */
export function publicReadFront(cache: PublicReadCache, requestLog: RequestLog): FrontHandler {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET') return false;
    const alias = cache.aliasOf(req.url!);
    if (!alias) return false;
    const headers = req.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (alias.visitorOnly && headers.cookie?.includes(sessionCookie)) return false;
    // A reader waiting for their own write goes to the route (read-your-writes), which waits for it.
    if (hasPendingWrites(req)) return false;
    const hit = cache.peek(alias.key);
    if (!hit) return false;
    answerAtFront(req, res, hit, { shared: true, route: alias.route, requestLog });
    frontAnswers.inc();
    return true;
  };
}

/**
 * Sends JSON bytes from the front as the route sends them (sendJson and the request pipeline): the
 * correlation id, the /api security headers, the ETag (304 on If-None-Match), `no-cache` for a shared
 * answer and `private, no-cache` for the user's own, Vary, the coding the browser takes; then the request
 * log line and the latency histogram under the route's pattern.
 */
export function answerAtFront(
  req: IncomingMessage,
  res: ServerResponse,
  read: EncodableJson,
  opts: { shared: boolean; route: string; requestLog: RequestLog },
): void {
  const started = performance.now();
  const headers = req.headers;
  const correlationId = sanitizeCorrelationId(headers[CORRELATION_HEADER]) ?? randomUUID();
  tagCorrelationId(correlationId);
  const sent = encodedJson(read, headers['accept-encoding']);
  const notModified = matchesEtag(headers['if-none-match'], sent.etag);
  const common = [
    CORRELATION_HEADER,
    correlationId,
    'x-content-type-options',
    'nosniff',
    'cache-control',
    opts.shared ? 'no-cache' : 'private, no-cache',
    'x-frame-options',
    'DENY',
    'referrer-policy',
    'same-origin',
    'etag',
    sent.etag,
    'vary',
    varyOf(read.body.length),
  ];
  if (notModified) {
    res.writeHead(304, common);
    res.end();
  } else {
    if (sent.encoding) common.push('content-encoding', sent.encoding);
    common.push('content-type', 'application/json; charset=utf-8', 'content-length', String(sent.body.length));
    res.writeHead(200, common);
    res.end(sent.body);
  }
  opts.requestLog.record(correlationId, 'GET', opts.route, undefined, notModified ? 304 : 200, performance.now() - started);
}
