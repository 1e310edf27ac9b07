import { ForbiddenException } from '@nestjs/common';
import {
  CORRELATION_HEADER,
  tagCorrelationId,
  READ_AFTER_MAX_MS,
  readYourWrites,
  runWithRequestContext,
  sanitizeCorrelationId,
  type ReadYourWrites,
} from '@clipit/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { installV1Etags } from './v1-etags.js';
import { compressJson, jsonEncodingFor, MIN_COMPRESSED_BYTES, varyOnEncoding } from './json-compression.js';
import { SESSION_COOKIE, sessionCookieOptions, shortLivedCookieOptions, type CookieSecureMode } from './session-cookie.js';
import {
  AFTER_HEADER_ANSWERED,
  afterWriting,
  formatPendingWrites,
  PENDING_WRITE_LIFETIME_MS,
  PENDING_WRITES_COOKIE,
  pendingWritesOf,
  STALE_HEADER,
  type PendingWrite,
} from './pending-writes.js';
import { assertNoControlCharacters } from './control-characters.js';
import type { EndpointRouteConfig } from './endpoint.js';
import type { RequestLog } from './request-log.js';
import { CROSS_SITE_REFUSED } from './messages.js';
import { isCrossSiteRequest, originCheckInput } from './origin-check.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Accepted from x-correlation-id or generated; echoed back and carried on every gRPC call. */
    correlationId: string;
    /** Set when the session cookie named a session identity does not know (the answer clears it). */
    sessionRejected?: boolean;
    /** Set when identity extended the session (rolling expiry): the cookie is re-issued with the new lifetime. */
    renewedSession?: { sid: string; expiresAt: string };
    /**
     * Read-your-writes (ADR 0043): the writes this request names, which its reads wait for (at most
     * READ_AFTER_MAX_MS from its start), and the events its own writes committed.
     */
    readYourWrites: ReadYourWrites & { after: readonly PendingWrite[] };
  }
}

export interface RequestPipelineOptions {
  publicOrigin: string | undefined;
  cookieSecure: CookieSecureMode;
  /** The request log line and the latency histogram (shared with the front). */
  requestLog: RequestLog;
}

/**
 * Fastify hooks every request goes through, before any route: correlation id, security headers,
 * the cross-site check (before the body is even read), the control-character rule (once it is), and
 * afterwards the JSON request log and the latency histogram.
 */
export function installRequestPipeline(fastify: FastifyInstance, opts: RequestPipelineOptions): void {
  const requestLog = opts.requestLog;
  fastify.decorateRequest('correlationId', '');
  fastify.decorateRequest('readYourWrites', null as unknown as FastifyRequest['readYourWrites']);

  fastify.addHook('onRequest', (request, reply, done) => {
    const id = sanitizeCorrelationId(request.headers[CORRELATION_HEADER]) ?? randomUUID();
    request.correlationId = id;
    tagCorrelationId(id);
    reply.header(CORRELATION_HEADER, id);
    reply.header('X-Content-Type-Options', 'nosniff');
    if (request.url.startsWith('/api/')) {
      reply.header('Cache-Control', 'no-store');
      reply.header('X-Frame-Options', 'DENY');
      reply.header('Referrer-Policy', 'same-origin');
    }
    const routeIgnoresCookie = (request.routeOptions.config as EndpointRouteConfig | undefined)?.cookieless === true;
    if (
      isCrossSiteRequest(originCheckInput(request, { publicOrigin: opts.publicOrigin, sessionCookie: SESSION_COOKIE, routeIgnoresCookie }))
    ) {
      done(new ForbiddenException(CROSS_SITE_REFUSED));
      return;
    }
    const now = Date.now();
    request.readYourWrites = readYourWrites(pendingWritesOf(request.raw, now), now + READ_AFTER_MAX_MS) as FastifyRequest['readYourWrites'];
    // The rest of the lifecycle continues inside the request's context...
    runWithRequestContext({ correlationId: id, readYourWrites: request.readYourWrites }, () => done());
  });

  // Once the body is parsed: one rule on control characters for every route, whatever field holds
  // them (multipart fields, read later by their route, get the same check in ValidBody).
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      // The query parser's object has a prototype of its own: copied into plain ones to be walked.
      assertNoControlCharacters(request.body, { ...(request.query as object) }, { ...(request.params as object) });
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  // ...and is re-entered once the body has been read, since stream events run outside that scope.
  fastify.addHook('preHandler', (request, _reply, done) => {
    runWithRequestContext({ correlationId: request.correlationId, readYourWrites: request.readYourWrites }, () => done());
  });

  // Read-your-writes (ADR 0043): a write's answer names its events, for the writer's next reads (the
  // cookie for browsers, the header for other clients); a read that stopped waiting for them says so.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const rw = request.readYourWrites;
    if (!rw) return done(null, payload);
    if (rw.stale) reply.header(STALE_HEADER, '1');
    if (rw.written.length > 0 && reply.statusCode < 400) {
      const value = formatPendingWrites(afterWriting(rw.after, rw.written));
      reply.header(AFTER_HEADER_ANSWERED, value);
      reply.setCookie(
        PENDING_WRITES_COOKIE,
        value,
        shortLivedCookieOptions({
          path: '/',
          maxAgeSeconds: PENDING_WRITE_LIFETIME_MS / 1000,
          secureMode: opts.cookieSecure,
          requestProtocol: request.protocol,
        }),
      );
    }
    done(null, payload);
  });

  // A rolling session's new expiry reaches the browser with whatever answer the request gets.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const renewed = request.renewedSession;
    if (renewed && !request.sessionRejected && reply.statusCode < 500) {
      reply.setCookie(
        SESSION_COOKIE,
        renewed.sid,
        sessionCookieOptions({ expiresAt: renewed.expiresAt, secureMode: opts.cookieSecure, requestProtocol: request.protocol }),
      );
    }
    done(null, payload);
  });

  // The versioned read API's answers: an ETag each, 304 for a match, compressed by their own hook.
  installV1Etags(fastify);

  // Other JSON answers of the API (those not sent from the read cache, which compresses its own once)
  // go compressed when big enough and the browser takes it.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!request.url.startsWith('/api/') || reply.statusCode !== 200 || reply.hasHeader('content-encoding') || reply.hasHeader('etag'))
      return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    if (body.length >= MIN_COMPRESSED_BYTES) reply.header('Vary', varyOnEncoding(reply.getHeader('vary') as string | undefined));
    const encoding = jsonEncodingFor(request.headers['accept-encoding'], body.length);
    if (!encoding) return done(null, payload);
    const compressed = compressJson(body, encoding);
    reply.header('Content-Encoding', encoding);
    reply.header('Content-Length', String(compressed.length));
    done(null, compressed);
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    requestLog.record(
      request.correlationId,
      request.method,
      route,
      route === undefined ? request.url : undefined,
      reply.statusCode,
      reply.elapsedTime,
    );
    done();
  });
}
