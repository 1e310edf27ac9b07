import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Endpoint } from '../http/endpoint.js';
import { mediaRoutes } from './media.routes.js';
import { MediaService } from './media.service.js';

@Controller()
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Endpoint(mediaRoutes.object)
  async object(@Req() req: FastifyRequest<{ Params: Record<string, string | undefined> }>, @Res() reply: FastifyReply): Promise<void> {
    await this.media.send(req, reply);
  }
}
