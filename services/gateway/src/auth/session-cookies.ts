import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { clearedSessionCookieOptions, SESSION_COOKIE, sessionCookieOptions } from '../http/session-cookie.js';
import { AuthService, type SignedIn } from './auth.service.js';
import { toCurrentUser, type CurrentUser } from './current-user.js';
import { SESSION_CACHE, type SessionCache } from './session-cache.js';

/** What a sign-up or a login answers: the user, and the placeholder profile a sign-up claimed. */
export interface SignedInJson {
  user: CurrentUser;
  claimedProfile?: { displayName: string };
}

/** The session cookie as sign-in and sign-out set it, and this replica's session cache kept in step. */
@Injectable()
export class SessionCookies {
  constructor(
    private readonly auth: AuthService,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
  ) {}

  /** Sets the cookie of the session `signingIn` started, and answers its user. */
  async start(reply: FastifyReply, signingIn: Promise<SignedIn>): Promise<SignedInJson> {
    const result = await signingIn;
    const options = sessionCookieOptions({
      expiresAt: result.session.expiresAt,
      secureMode: this.config.COOKIE_SECURE,
      requestProtocol: reply.request.protocol,
    });
    reply.setCookie(SESSION_COOKIE, result.session.sid, options);
    const claimed = result.claimedProfile;
    return { user: toCurrentUser(result.user), ...(claimed ? { claimedProfile: { displayName: claimed.displayName } } : {}) };
  }

  /** Signs this browser out: the cookie cleared first, then the session ended at identity and forgotten here. */
  async end(reply: FastifyReply): Promise<void> {
    // Cleared first: even if identity cannot be reached, this browser is signed out.
    reply.clearCookie(SESSION_COOKIE, clearedSessionCookieOptions(this.config.COOKIE_SECURE, reply.request.protocol));
    const sid = reply.request.cookies[SESSION_COOKIE];
    try {
      await this.auth.logOut(sid);
    } finally {
      // This replica forgets it at once (after identity deleted it, so no racing request caches it again);
      // the others on identity's `session.ended`.
      if (sid) this.sessions.invalidateSession(sid);
    }
  }
}
