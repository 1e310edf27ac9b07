import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { endpointOf, parseBody, type EndpointDef } from './endpoint-def.js';
import { addressKey, LIMITS, type DailyLimitName, type LimitName, type WindowLimit } from './limits.js';
import { RateLimits, type Counted } from './rate-limits.js';

/** The request as the guard reads it: the session principal a session guard put on it, the parsed multipart check. */
type LimitedRequest = FastifyRequest & { user?: { user: { id: string } }; isMultipart?: () => boolean };

const REFUSED = Symbol('refused by its shape');

/**
 * The one rate-limit guard (ADR 0035): a route whose declaration names a `limit` (its *.routes.ts entry)
 * is counted against that limit of the table in limits.ts before its handler runs, and refused with 429
 * text/plain and Retry-After past it. A request its route will refuse by its shape (the body schema, and
 * with it the shared field rules) costs nothing: it goes on uncounted to be refused there.
 *
 * It is a Nest interceptor, which `Endpoint()` puts after the route's own guards and interceptors: the
 * session guard has named the account by then, a multipart form has been read (sign-up counts per handle
 * too), and a daily limit can wrap the handler to give its slot back when the owner made nothing.
 */
@Injectable()
export class RateLimitGuard implements NestInterceptor {
  constructor(private readonly limits: RateLimits) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const def = endpointOf(context.getHandler());
    if (!def?.limit) return next.handle();
    const request = context.switchToHttp().getRequest<LimitedRequest>();
    const body = acceptedBody(def, request);
    if (body === REFUSED) return next.handle();
    const name = def.limit;
    if (isDaily(name)) {
      const who = { ip: addressKey(request.ip), key: request.user?.user.id ?? '' };
      return from(this.limits.counting(name, who, () => lastValueFrom(next.handle())));
    }
    const limit: WindowLimit = LIMITS[name];
    await this.limits.hit(name, counted(limit, request, body));
    return next.handle();
  }
}

/** The body as the route's schema reads it, or REFUSED when the route will refuse it (ValidBody says why). */
function acceptedBody(def: EndpointDef, request: LimitedRequest): unknown {
  if (!def.body) return undefined;
  if (!def.multipartFile && request.isMultipart?.()) return REFUSED;
  try {
    return parseBody(def.body, request.body);
  } catch {
    return REFUSED;
  }
}

const isDaily = (name: LimitName): name is DailyLimitName => LIMITS[name].kind === 'daily';

function counted({ second, per }: WindowLimit, request: LimitedRequest, body: unknown): Counted {
  if (per === 'apiKey') {
    if (!request.apiKey) throw new Error('a limit counted per API key needs ApiKeyGuard before it');
    return { ip: `key:${request.apiKey.keyId}` };
  }
  if (second === 'account') return { ip: request.ip, key: request.user?.user.id };
  if (second === 'handle') return { ip: request.ip, key: (body as { twitterHandle?: string } | undefined)?.twitterHandle };
  return { ip: request.ip };
}
