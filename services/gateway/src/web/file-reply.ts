import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpStatus, NotFoundException } from '@nestjs/common';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { HttpErrorWithHeaders, RouteNotFoundError } from '../http/http-errors.js';
import { NOT_FOUND, noSuchRoute, RANGE_NOT_SATISFIABLE, WEB_APP_NOT_BUILT } from '../http/messages.js';
import { isNotModified, parseRange, rangeStillValid, type RangeRequest } from '../media/range.js';
import type { FoundFile } from './web.service.js';
import {
  acceptsHtml,
  cacheControlFor,
  chooseEncoding,
  contentTypeFor,
  isCompressible,
  isReservedPath,
  looksLikeFile,
  servesRanges,
} from './web-rules.js';

// How the site's controller answers with a built file (web.controller.ts): its headers, validators and
// encodings, kept apart so that each route of the controller stays one decision.

/** A request header's first value. */
export const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The request's path, percent-decoded where it can be (as the file names on disk are). */
export function requestPath(req: FastifyRequest): string {
  const raw = req.url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * What a request for the site asks for: a file of the shell's build, or a page (its index.html). A path
 * reserved for the API, media, health or metrics, and a page asked for by something that does not take
 * HTML, are no route of the site (404 with the route's text).
 */
export function siteRequest(req: FastifyRequest): { path: string; isFile: boolean } {
  const path = requestPath(req);
  const isFile = looksLikeFile(path);
  if (isReservedPath(path) || (!isFile && !acceptsHtml(header(req.headers.accept))))
    throw new RouteNotFoundError(noSuchRoute(req.method, path));
  return { path, isFile };
}

/** The request's query string with its '?', or ''. */
export function queryOf(url: string): string {
  const query = url.indexOf('?');
  return query >= 0 ? url.slice(query) : '';
}

/** 503 while the shell has not been built: nothing to serve yet, and never cached. */
export function webAppNotBuilt(reply: FastifyReply): FastifyReply {
  return reply.status(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(WEB_APP_NOT_BUILT);
}

/** `found` sent as {@link sendFile} does, or 404 when there is no such file. */
export function sendFound(
  req: FastifyRequest,
  reply: FastifyReply,
  found: FoundFile | undefined,
  htmlHeaders: Readonly<Record<string, string>>,
): FastifyReply {
  if (!found) throw new NotFoundException(NOT_FOUND);
  return sendFile(req, reply, found, htmlHeaders);
}

/**
 * A built file with its type, cache policy and validators; 304 when the client's copy is current. A text
 * asset goes out as its precompressed sibling when the browser accepts that encoding (brotli first),
 * with `Vary: Accept-Encoding` either way and an ETag of its own per encoding. Any other file (a video,
 * a picture) is sent in a single byte range when asked (206, as /media/* does; 416 past its end). An HTML
 * file carries `htmlHeaders` (the Content-Security-Policy and the other headers of a page, docs/adr/0036).
 */
export function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  { folder, file: original }: FoundFile,
  htmlHeaders: Readonly<Record<string, string>>,
): FastifyReply {
  const name = basename(original.path);
  const chosen = chooseEncoding(
    header(req.headers['accept-encoding']),
    original.encoded.map((e) => e.encoding),
  );
  const file = chosen ? original.encoded.find((e) => e.encoding === chosen)!.file : original;
  const validators = { etag: file.etag, lastModified: original.lastModified };
  const conditional = { ifNoneMatch: header(req.headers['if-none-match']), ifModifiedSince: header(req.headers['if-modified-since']) };
  const notModified = isNotModified(conditional, validators);
  const ranges = servesRanges(name);
  // Decided before any header is set, so a 416 goes out as the plain text answer every error is.
  const range: RangeRequest =
    ranges && !notModified && rangeStillValid(header(req.headers['if-range']), validators)
      ? parseRange(header(req.headers.range), file.size)
      : { kind: 'whole' };
  if (range.kind === 'unsatisfiable')
    throw new HttpErrorWithHeaders(RANGE_NOT_SATISFIABLE, HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, {
      'Content-Range': `bytes */${file.size}`,
    });
  reply.headers({
    'Content-Type': contentTypeFor(name),
    'Cache-Control': cacheControlFor(name),
    ETag: file.etag,
    'Last-Modified': original.lastModified.toUTCString(),
  });
  if (isCompressible(name)) reply.header('Vary', 'Accept-Encoding');
  if (ranges) reply.header('Accept-Ranges', 'bytes');
  if (name.endsWith('.html')) reply.headers(htmlHeaders);
  if (notModified) return reply.status(304).send();
  if (range.kind === 'partial') {
    reply.status(206).headers({
      'Content-Range': `bytes ${range.start}-${range.end}/${file.size}`,
      'Content-Length': String(range.end - range.start + 1),
    });
    return reply.send(req.method === 'HEAD' ? Readable.from([]) : folder.open(file, range));
  }
  if (chosen) reply.header('Content-Encoding', chosen.name);
  reply.header('Content-Length', String(file.size));
  // HEAD: an empty stream keeps our Content-Length (Fastify zeroes it for an absent body).
  return reply.send(req.method === 'HEAD' ? Readable.from([]) : folder.open(file));
}
