import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { encodedJson, etagFor, jsonEncodingFor, varyOnEncoding } from './json-compression.js';

/** The versioned read API's answers (ADR 0053), told by the path. */
export const isV1Path = (url: string): boolean => url.startsWith('/api/v1/');

/**
 * Whether `ifNoneMatch` (the header's list, or `*`) names the answer whose identity-coded ETag is `etag`,
 * in whichever coding the client kept it (`"…-br"`, `"…-gzip"`): the weak comparison If-None-Match uses
 * (RFC 9110 §13.1.2), since every coding of one JSON answer is the same representation's data.
 */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/-(br|gzip)"$/, '"');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === etag);
}

/**
 * Every 200 JSON answer of /api/v1 carries an ETag, a hash of its bytes (`"…-br"` when sent compressed),
 * with `Cache-Control: private, no-cache` (a program keeps it and asks again with If-None-Match); a request
 * whose If-None-Match names it gets 304 with no body. Registered before the API's compression hook, which
 * leaves an answer with an ETag as it is: this one compresses its own.
 */
export function installV1Etags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' || !isV1Path(request.url) || reply.statusCode !== 200) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    reply.header('Cache-Control', 'private, no-cache');
    reply.header('Vary', varyOnEncoding('Authorization'));
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      // The tag a 200 would have carried for this Accept-Encoding, as a 304 must (RFC 9110 §15.4.5).
      reply.header('ETag', etagFor(etag, jsonEncodingFor(request.headers['accept-encoding'], body.length)));
      reply.code(304);
      reply.removeHeader('content-length');
      reply.removeHeader('content-type');
      return done(null, '');
    }
    const sent = encodedJson({ body, etag }, request.headers['accept-encoding']);
    reply.header('ETag', sent.etag);
    if (!sent.encoding) return done(null, payload);
    reply.header('Content-Encoding', sent.encoding);
    reply.header('Content-Length', String(sent.body.length));
    done(null, sent.body);
  });
}
