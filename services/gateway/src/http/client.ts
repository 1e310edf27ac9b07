import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who is asking, as the owning services are told: the client's address and its user agent (cut to 512 characters). */
export interface ClientContext {
  ip: string;
  userAgent: string | undefined;
}

export function clientOf(req: FastifyRequest): ClientContext {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : undefined };
}

/** The request's {@link ClientContext}, as a route parameter. */
export const Client = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  clientOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);
