import { Controller, Get, NotFoundException, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { RouteNotFoundError } from '../http/http-errors.js';
import { NOT_FOUND, noSuchRoute, WEB_APP_NOT_BUILT } from '../http/messages.js';
import { isNotModified } from '../media/range.js';
import { WebService, type FoundFile } from './web.service.js';
import {
  acceptsHtml,
  cacheControlFor,
  chooseEncoding,
  contentTypeFor,
  isCompressible,
  isReservedPath,
  looksLikeFile,
} from './web-rules.js';

type Request = FastifyRequest<{ Params: Record<string, string | undefined> }>;

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function requestPath(req: FastifyRequest): string {
  const raw = req.url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The site itself: GET /remotes.json, the remotes' builds under /remotes/<name>/, and everything else
 * that is not an API, media, health or metrics path: the shell's files, or its index.html for any
 * page path (the shell's router decides what is there, its 404 page included).
 */
@Controller()
export class WebController {
  constructor(private readonly web: WebService) {}

  @Get('/remotes.json')
  async remotes(@Res() reply: FastifyReply): Promise<FastifyReply> {
    // Never cached: a remote redeployed elsewhere is found by the very next page load.
    return reply
      .header('Cache-Control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(await this.web.remotesDocument());
  }

  @Get('/remotes/*')
  async remote(@Req() req: Request, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const wildcard = req.params['*'] ?? '';
    const slash = wildcard.indexOf('/');
    const found = slash > 0 ? await this.web.remoteFile(wildcard.slice(0, slash), wildcard.slice(slash + 1)) : undefined;
    if (!found) throw new NotFoundException(NOT_FOUND);
    // Public, credential-free files: a shell on another origin (a dev server, a CDN) may load them too.
    reply.header('Access-Control-Allow-Origin', '*');
    return send(req, reply, found, this.web.htmlHeaders);
  }

  @Get('/*')
  async site(@Req() req: Request, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const path = requestPath(req);
    if (isReservedPath(path)) throw new RouteNotFoundError(noSuchRoute(req.method, path));
    if (looksLikeFile(path)) {
      const found = await this.web.shellFile(path);
      if (!found) throw new NotFoundException(NOT_FOUND);
      return send(req, reply, found, this.web.htmlHeaders);
    }
    if (!acceptsHtml(header(req.headers.accept))) throw new RouteNotFoundError(noSuchRoute(req.method, path));
    const index = await this.web.shellIndex();
    if (!index) return reply.status(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(WEB_APP_NOT_BUILT);
    // The owning remote's files start downloading with the HTML instead of after the shell has found them.
    const query = req.url.indexOf('?');
    reply.header('Link', await this.web.preloadLinks(path, query >= 0 ? req.url.slice(query) : ''));
    return send(req, reply, index, this.web.htmlHeaders);
  }
}

/**
 * A built file with its type, cache policy and validators; 304 when the client's copy is current. A text
 * asset goes out as its precompressed sibling when the browser accepts that encoding (brotli first),
 * with `Vary: Accept-Encoding` either way and an ETag of its own per encoding. An HTML file carries
 * `htmlHeaders` (the Content-Security-Policy and the other headers of a page, docs/adr/0036).
 */
function send(
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
  reply.headers({
    'Content-Type': contentTypeFor(name),
    'Cache-Control': cacheControlFor(name),
    ETag: file.etag,
    'Last-Modified': original.lastModified.toUTCString(),
  });
  if (isCompressible(name)) reply.header('Vary', 'Accept-Encoding');
  if (name.endsWith('.html')) reply.headers(htmlHeaders);
  const conditional = { ifNoneMatch: header(req.headers['if-none-match']), ifModifiedSince: header(req.headers['if-modified-since']) };
  if (isNotModified(conditional, { etag: file.etag, lastModified: original.lastModified })) return reply.status(304).send();
  if (chosen) reply.header('Content-Encoding', chosen.name);
  reply.header('Content-Length', String(file.size));
  // HEAD: an empty stream keeps our Content-Length (Fastify zeroes it for an absent body).
  return reply.send(req.method === 'HEAD' ? Readable.from([]) : folder.open(file));
}
