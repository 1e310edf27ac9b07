import { status as GrpcStatus } from '@grpc/grpc-js';
import { createParamDecorator, Inject, Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { identityV1 } from '@clipit/contracts';
import { GrpcCallError } from '@clipit/service-kit';
import type { FastifyRequest } from 'fastify';
import { Strategy as CustomStrategy } from 'passport-custom';
import { NOT_SIGNED_IN } from '../http/messages.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { SESSION_COOKIE } from './session-cookie.js';

/** Who is calling: the session id from the cookie and the user identity resolved it to. */
export interface SessionPrincipal {
  sid: string;
  user: identityV1.User;
}

// A session id is opaque to the gateway; this only keeps junk (and huge values) away from identity.
const PLAUSIBLE_SID = /^[\w.~+/=-]{16,256}$/;

/**
 * Passport strategy "session": the cookie's session id, resolved by identity in one gRPC call.
 * Unknown or expired → no user (401). Identity being down is an error (503), not "signed out".
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(CustomStrategy, 'session') {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient) {
    super();
  }

  async validate(request: FastifyRequest): Promise<SessionPrincipal | null> {
    const sid = request.cookies[SESSION_COOKIE];
    if (!sid) return null;
    if (!PLAUSIBLE_SID.test(sid)) {
      request.sessionRejected = true;
      return null;
    }
    try {
      const resolved = await this.identity.resolveSessionWithExpiry({ sid });
      if (!resolved.user || !resolved.session) return null;
      // Identity extended the session: the browser's cookie must live as long (set when the answer goes out).
      if (resolved.renewed) request.renewedSession = { sid, expiresAt: resolved.session.expiresAt };
      return { sid, user: resolved.user };
    } catch (err) {
      if (err instanceof GrpcCallError && (err.code === GrpcStatus.UNAUTHENTICATED || err.code === GrpcStatus.NOT_FOUND)) {
        request.sessionRejected = true;
        return null;
      }
      throw err;
    }
  }
}

/** Routes behind it need a live session; everyone else gets 401 'Not signed in'. */
@Injectable()
export class SessionGuard extends AuthGuard('session') {
  override handleRequest<T = SessionPrincipal>(err: unknown, user: T | false | null): T {
    if (err) throw err;
    if (!user) throw new UnauthorizedException(NOT_SIGNED_IN);
    return user;
  }
}

/** The principal a SessionGuard put on the request. */
export const CurrentSession = createParamDecorator((_data: unknown, ctx: ExecutionContext): SessionPrincipal => {
  return ctx.switchToHttp().getRequest<{ user: SessionPrincipal }>().user;
});

/**
 * For routes open to visitors that answer more to a signed-in user (GET /api/following/:id): the
 * principal when the session cookie names a live session, else none; never refuses.
 */
@Injectable()
export class OptionalSessionGuard extends AuthGuard('session') {
  override handleRequest<T = SessionPrincipal>(err: unknown, user: T | false | null): T {
    if (err) throw err;
    return (user || undefined) as T;
  }
}

/** The principal an OptionalSessionGuard found, or undefined for a visitor. */
export const OptionalSession = createParamDecorator((_data: unknown, ctx: ExecutionContext): SessionPrincipal | undefined => {
  return ctx.switchToHttp().getRequest<{ user?: SessionPrincipal }>().user ?? undefined;
});
