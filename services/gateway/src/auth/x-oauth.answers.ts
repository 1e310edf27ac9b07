import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { SESSION_COOKIE, sessionCookieOptions, shortLivedCookieOptions } from '../http/session-cookie.js';
import { X_FLOW_COOKIE, X_FLOW_COOKIE_PATH } from './x-oauth.js';
import type { XStep } from './x-oauth.service.js';

/** How each step of sign in with X answers (ADR 0028): a 302, with the flow's cookie and the session's as the step needs. */
@Injectable()
export class XOAuthAnswers {
  constructor(@Inject(CONFIG) private readonly config: GatewayConfig) {}

  async redirect(reply: FastifyReply, step: XStep, endFlow = false): Promise<void> {
    const req = reply.request;
    const secureMode = this.config.COOKIE_SECURE;
    if (step.flowId) {
      reply.setCookie(
        X_FLOW_COOKIE,
        step.flowId,
        shortLivedCookieOptions({
          path: X_FLOW_COOKIE_PATH,
          maxAgeSeconds: this.config.X_OAUTH_STATE_TTL_SECONDS,
          secureMode,
          requestProtocol: req.protocol,
        }),
      );
    } else if (endFlow) {
      reply.clearCookie(X_FLOW_COOKIE, shortLivedCookieOptions({ path: X_FLOW_COOKIE_PATH, secureMode, requestProtocol: req.protocol }));
    }
    if (step.signedIn) {
      // Exactly as a password login sets it.
      reply.setCookie(
        SESSION_COOKIE,
        step.signedIn.session.sid,
        sessionCookieOptions({ expiresAt: step.signedIn.session.expiresAt, secureMode, requestProtocol: req.protocol }),
      );
    }
    await reply
      .status(302)
      .header('Location', step.location)
      // The answer carries a state or a session: never stored by a cache on the way.
      .header('Cache-Control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`Redirecting to ${step.location}`);
  }
}
