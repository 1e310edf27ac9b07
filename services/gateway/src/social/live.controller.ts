import { Controller, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint } from '../http/endpoint.js';
import { LiveStreams } from './live-streams.js';
import { socialRoutes } from './social.routes.js';

/**
 * GET /api/live/stream: server-sent events of followed streamers going live or offline (LiveHub). The
 * session is checked when the stream opens; the hub ends it after LIVE_STREAM_MAX_SECONDS and the
 * browser comes back with Last-Event-ID, so a signed-out session stops receiving soon after.
 */
@Controller()
export class LiveController {
  constructor(private readonly streams: LiveStreams) {}

  @Endpoint(socialRoutes.liveStream)
  @UseGuards(SessionGuard)
  async stream(
    @CurrentSession() session: SessionPrincipal,
    @Res() reply: FastifyReply,
    @Query('lastEventId') lastEventId?: string,
  ): Promise<void> {
    await this.streams.open(session.user.id, reply, lastEventId);
  }
}
