import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RateLimits } from '../http/rate-limits.js';
import { OEMBED_MESSAGES, statusRefOf } from './oembed.js';
import { OembedService, type OembedResult } from './oembed.service.js';
import { toOembedJson } from './twitter.schemas.js';

/**
 * X's embed of a post, for the leaderboard's preview (spec 01 §2, §7). Only X status links are looked up;
 * a post X has answered for (found or missing) comes from the cache, anything else is asked of X, counted
 * per address (the `oembed` limit of http/limits.ts, which counts only the lookups that reach X) so nobody
 * can make the gateway walk X's ids for them.
 */
@Injectable()
export class PostPreviews {
  constructor(
    private readonly embeds: OembedService,
    private readonly limits: RateLimits,
  ) {}

  async lookup(url: unknown, ip: string): Promise<OembedResult> {
    if (url === undefined || url === '') throw new BadRequestException(OEMBED_MESSAGES.missingUrl);
    const ref = statusRefOf(url);
    if (!ref) throw new BadRequestException(OEMBED_MESSAGES.invalidUrl);
    const cached = await this.embeds.cached(ref);
    if (cached) return cached;
    await this.limits.hit('oembed', { ip });
    return this.embeds.fetch(ref);
  }

  send(reply: FastifyReply, result: OembedResult): FastifyReply {
    if (result.kind === 'not-found') throw new NotFoundException(OEMBED_MESSAGES.notFound);
    if (result.kind === 'unavailable') {
      // Sent here, not thrown: the error filter words every 5xx of ours as 'Something went wrong', and
      // logs it as a fault of ours; X being slow is neither.
      return reply.status(502).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(OEMBED_MESSAGES.unavailable);
    }
    // The same for every visitor: browsers and CDNs may keep it as long as the gateway does.
    return reply
      .header('Cache-Control', `public, max-age=${result.maxAgeSeconds}`)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(toOembedJson(result.oembed)));
  }
}
