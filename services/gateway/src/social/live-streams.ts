import { CONFIG } from '@clipit/service-kit';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { openEventStream } from '../http/event-streams.js';
import { LiveHub } from './live-hub.js';

export const TOO_MANY_LIVE_STREAMS = 'Too many live connections for this account; close a tab and try again';

/** The SSE id the browser sends back on reconnecting: a stream sequence, or nothing usable. */
export function parseLastEventId(raw: unknown): number | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Opens a signed-in user's live stream (server-sent events) on the hub, at most LIVE_STREAMS_PER_USER at a time. */
@Injectable()
export class LiveStreams {
  constructor(
    private readonly hub: LiveHub,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  async open(userId: string, reply: FastifyReply, lastEventIdQuery: string | undefined): Promise<void> {
    if (this.hub.openFor(userId) >= this.config.LIVE_STREAMS_PER_USER)
      throw new HttpException(TOO_MANY_LIVE_STREAMS, HttpStatus.TOO_MANY_REQUESTS);
    const lastEventId = parseLastEventId(reply.request.headers['last-event-id']) ?? parseLastEventId(lastEventIdQuery);

    const res = openEventStream(reply);
    try {
      await this.hub.open(userId, res, lastEventId);
    } catch {
      // social away: the stream ends and the browser retries; the shell polls meanwhile.
      if (!res.writableEnded) res.end();
    }
  }
}
