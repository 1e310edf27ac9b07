import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { queryOf, sendFile, sendFound, siteRequest, webAppNotBuilt } from './file-reply.js';
import { WebService } from './web.service.js';

type Request = FastifyRequest<{ Params: Record<string, string | undefined> }>;

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
    const found = await this.web.remoteFileAt(req.params['*'] ?? '');
    // Public, credential-free files: a shell on another origin (a dev server, a CDN) may load them too.
    if (found) reply.header('Access-Control-Allow-Origin', '*');
    return sendFound(req, reply, found, this.web.htmlHeaders);
  }

  @Get('/*')
  async site(@Req() req: Request, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { path, isFile } = siteRequest(req);
    if (isFile) return sendFound(req, reply, await this.web.shellFile(path), this.web.htmlHeaders);
    const index = await this.web.shellIndex();
    if (!index) return webAppNotBuilt(reply);
    // The owning remote's files start downloading with the HTML instead of after the shell has found them.
    reply.header('Link', await this.web.preloadLinks(path, queryOf(req.url)));
    return sendFile(req, reply, index, this.web.htmlHeaders);
  }
}
