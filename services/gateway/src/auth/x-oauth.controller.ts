import { Controller, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Endpoint } from '../http/endpoint.js';
import { clientOf } from '../http/client.js';
import { X_FLOW_COOKIE } from './x-oauth.js';
import { XOAuthAnswers } from './x-oauth.answers.js';
import { xOAuthRoutes } from './x-oauth.routes.js';
import { XOAuthService, type XCallbackQuery } from './x-oauth.service.js';

/** Sign in with X's browser-facing steps (ADR 0028): each answers a 302, its failures included. */
@Controller()
export class XOAuthController {
  constructor(
    private readonly xOAuth: XOAuthService,
    private readonly answers: XOAuthAnswers,
  ) {}

  @Endpoint(xOAuthRoutes.login)
  async login(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answers.redirect(reply, await this.xOAuth.start(req, clientOf(req)));
  }

  @Endpoint(xOAuthRoutes.twitter)
  async twitter(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answers.redirect(reply, await this.xOAuth.start(req, clientOf(req)));
  }

  @Endpoint(xOAuthRoutes.callback)
  async callback(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answers.redirect(reply, await this.xOAuth.finish(callbackQuery(query), req.cookies[X_FLOW_COOKIE], clientOf(req)), true);
  }

  @Endpoint(xOAuthRoutes.providers)
  providers() {
    return { x: { available: this.xOAuth.available } };
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
