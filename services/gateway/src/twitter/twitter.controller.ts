import type { RateLimiter, RateLimitVerdict } from '@clipit/service-kit';
import { BadRequestException, Controller, Inject, NotFoundException, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Endpoint } from '../http/endpoint.js';
import { OEMBED_ACTION, OEMBED_LIMITER, OEMBED_MESSAGES, OembedLimitReached, statusRefOf } from './oembed.js';
import { OembedService, type OembedResult } from './oembed.service.js';
import { twitterRoutes } from './twitter.routes.js';
import { toOembedJson } from './twitter.schemas.js';

/**
 * X's embed of a post, for the leaderboard's preview (spec 01 §2, §7). Only X status links are looked
 * up; a post X has answered for (found or missing) comes from the cache, anything else is asked of X,
 * counted per address so nobody can make the gateway walk X's ids for them.
 */
@Controller()
export class TwitterController {
  constructor(
    private readonly embeds: OembedService,
    @Inject(OEMBED_LIMITER) private readonly limiter: RateLimiter,
  ) {}

  @Endpoint(twitterRoutes.oembed)
  async oembed(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('url') url: unknown): Promise<FastifyReply> {
    if (url === undefined || url === '') throw new BadRequestException(OEMBED_MESSAGES.missingUrl);
    const ref = statusRefOf(url);
    if (!ref) throw new BadRequestException(OEMBED_MESSAGES.invalidUrl);

    let result = await this.embeds.cached(ref);
    if (!result) {
      let verdict: RateLimitVerdict;
      try {
        verdict = await this.limiter.hit(OEMBED_ACTION, request.ip);
      } catch {
        // The limiter counts in this process when Redis is away; anything else is no reason to refuse a preview.
        verdict = { allowed: true };
      }
      if (!verdict.allowed) throw new OembedLimitReached(verdict.retryAfterSeconds);
      result = await this.embeds.fetch(ref);
    }
    return send(reply, result);
  }
}

function send(reply: FastifyReply, result: OembedResult): FastifyReply {
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
