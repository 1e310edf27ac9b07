import { HIRE_MESSAGES } from '@clipit/field-rules';
import { BadRequestException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { SessionPrincipal } from '../auth/session.strategy.js';
import { uuidParam } from '../http/path-params.js';

type HireRequest = FastifyRequest<{ Params: { clipperId: string } }> & { user?: SessionPrincipal };

/**
 * Who a hire request is for, checked before the route counts it against the hire limit: a clipper id in
 * the path, the same one the body names if it names one (spec 02 §7 sends it in both), and not the sender
 * themselves. After the optional session guard, which names the sender.
 */
@Injectable()
export class HireTargetGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<HireRequest>();
    const clipperId = uuidParam(request.params.clipperId, 'Invalid clipper id');
    const named = (request.body as { clipperId?: unknown } | undefined)?.clipperId;
    // A clipperId of the wrong type is the body's refusal, in its words.
    if (typeof named === 'string' && named.toLowerCase() !== clipperId) throw new BadRequestException('clipperId does not match the path');
    if (request.user?.user.id === clipperId) throw new BadRequestException(HIRE_MESSAGES.self);
    return true;
  }
}
