import { Controller, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Endpoint } from '../http/endpoint.js';
import { PostPreviews } from './post-previews.service.js';
import { twitterRoutes } from './twitter.routes.js';

/** X's embed of a post, for the leaderboard's preview: looked up (and limited) by PostPreviews. */
@Controller()
export class TwitterController {
  constructor(private readonly previews: PostPreviews) {}

  @Endpoint(twitterRoutes.oembed)
  async oembed(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('url') url: unknown): Promise<FastifyReply> {
    return this.previews.send(reply, await this.previews.lookup(url, request.ip));
  }
}
