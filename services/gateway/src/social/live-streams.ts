import { CONFIG } from '@clipit/service-kit';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { LiveHub } from './live-hub.js';

export const TOO_MANY_LIVE_STREAMS = 'Too many live connections for this account; close a tab and try again';
/** What the browser waits before reconnecting after the server ends a stream. */
const RETRY_MS = 3000;

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

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // Proxies that buffer answers (nginx) would hold events back.
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n\n`);
    try {
      await this.hub.open(userId, res, lastEventId);
    } catch {
      // social away: the stream ends and the browser retries; the shell polls meanwhile.
      if (!res.writableEnded) res.end();
    }
  }
}
