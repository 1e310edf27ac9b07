import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Endpoint } from '../http/endpoint.js';
import { mediaRoutes } from './media.routes.js';
import { MediaService } from './media.service.js';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

@Controller()
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Endpoint(mediaRoutes.object)
  async object(@Req() req: FastifyRequest<{ Params: Record<string, string | undefined> }>, @Res() reply: FastifyReply): Promise<void> {
    const key = req.params['*'] ?? '';
    const answer = await this.media.serve(
      key,
      {
        range: header(req.headers.range),
        ifRange: header(req.headers['if-range']),
        ifNoneMatch: header(req.headers['if-none-match']),
        ifModifiedSince: header(req.headers['if-modified-since']),
      },
      req.method !== 'HEAD',
    );
    // HEAD: an empty stream keeps our Content-Length (Fastify zeroes it for an absent body).
    await reply
      .status(answer.status)
      .headers(answer.headers)
      .send(answer.body ?? (req.method === 'HEAD' && answer.status !== 304 ? Readable.from([]) : undefined));
  }
}
