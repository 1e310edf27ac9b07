import { Catch, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { SESSION_COOKIE } from './session-cookie.js';
import { RouteNotFoundError, toErrorAnswer } from './http-errors.js';
import { noSuchRoute } from './messages.js';

/**
 * The one place failures become answers: every non-OK response is `text/plain; charset=utf-8` whose
 * body a person can act on. Validation, gRPC, body-parsing, rate-limit and unknown errors all land here,
 * including those Fastify raises before a route runs (Nest routes them through its global filters).
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const answer = toErrorAnswer(this.routeNotFound(exception, request) ?? exception);

    if (answer.serverFault) {
      this.log.error(
        { err: exception, method: request.method, url: request.url, status: answer.status, correlationId: request.correlationId },
        'request failed',
      );
    }
    if (reply.sent) return;
    if (request.sessionRejected) reply.clearCookie(SESSION_COOKIE, { path: '/' });
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
    reply.status(answer.status).type('text/plain; charset=utf-8').send(answer.message);
  }

  /** Nest's not-found handler says "Cannot GET /x"; ours names the route the same way for every path. */
  private routeNotFound(exception: unknown, request: FastifyRequest): RouteNotFoundError | undefined {
    if (!(exception instanceof NotFoundException) || request.routeOptions?.url !== undefined) return undefined;
    return new RouteNotFoundError(noSuchRoute(request.method, request.url.split('?')[0] ?? '/'));
  }
}
