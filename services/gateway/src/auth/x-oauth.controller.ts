import { CONFIG } from '@clipit/service-kit';
import { Controller, Inject, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { Endpoint } from '../http/endpoint.js';
import { clientOf } from '../http/client.js';
import { SESSION_COOKIE, sessionCookieOptions, shortLivedCookieOptions } from '../http/session-cookie.js';
import { X_FLOW_COOKIE, X_FLOW_COOKIE_PATH } from './x-oauth.js';
import { xOAuthRoutes } from './x-oauth.routes.js';
import { XOAuthService, type XCallbackQuery, type XStep } from './x-oauth.service.js';

/** Sign in with X's browser-facing steps (ADR 0028): each answers a 302, its failures included. */
@Controller()
export class XOAuthController {
  constructor(
    private readonly xOAuth: XOAuthService,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Endpoint(xOAuthRoutes.login)
  async login(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.redirect(req, reply, await this.xOAuth.start(req, clientOf(req)));
  }

  @Endpoint(xOAuthRoutes.twitter)
  async twitter(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.redirect(req, reply, await this.xOAuth.start(req, clientOf(req)));
  }

  @Endpoint(xOAuthRoutes.callback)
  async callback(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const step = await this.xOAuth.finish(callbackQuery(query), req.cookies[X_FLOW_COOKIE], clientOf(req));
    await this.redirect(req, reply, step, true);
  }

  @Endpoint(xOAuthRoutes.providers)
  providers() {
    return { x: { available: this.xOAuth.available } };
  }

  private async redirect(req: FastifyRequest, reply: FastifyReply, step: XStep, endFlow = false): Promise<void> {
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

/** The callback's query as X sends it; repeated or odd values count as absent. */
function callbackQuery(query: Record<string, unknown>): XCallbackQuery {
  const one = (name: string) => (typeof query[name] === 'string' && query[name] !== '' ? (query[name] as string) : undefined);
  const code = one('code');
  const state = one('state');
  const error = one('error');
  return { ...(code ? { code } : {}), ...(state ? { state } : {}), ...(error ? { error } : {}) };
}
