import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, LOGGER } from '@clipit/service-kit';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import type { GatewayConfig } from '../config.js';
import { LimitReached, RateLimits } from '../http/rate-limits.js';
import type { ClientContext } from '../http/client.js';
import type { SignedIn } from './auth.service.js';
import { SessionResolver } from './session.strategy.js';
import { XFlowStore } from './x-oauth.store.js';
import { XOAuthClient } from './x-oauth.client.js';
import {
  AFTER_X_SIGN_IN,
  authorizeUrl,
  callbackUrl,
  codeForIdentityError,
  FLOW_ID,
  loginErrorLocation,
  newXFlow,
  sameState,
  XSignInFailure,
  type XFlow,
} from './x-oauth.js';

/** Where a step of the round trip sends the browser, and what it sets on the way. */
export interface XStep {
  location: string;
  /** Start: the flow cookie's value. */
  flowId?: string;
  /** Callback: the session to put in clipit.sid. */
  signedIn?: SignedIn;
}

export interface XCallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

/**
 * Sign in with X (ADR 0028): the start makes a state and a PKCE verifier, keeps them for the browser's
 * cookie and sends it to X; the callback checks the state (once), trades the code for a token, reads the
 * X user and has identity sign them in. Any failure becomes /login?error=<code>, never an error page.
 */
@Injectable()
export class XOAuthService {
  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    private readonly limits: RateLimits,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly store: XFlowStore,
    private readonly x: XOAuthClient,
    private readonly sessions: SessionResolver,
  ) {}

  get available(): boolean {
    return this.config.X_OAUTH_CLIENT_ID !== '';
  }

  async start(req: FastifyRequest, client: ClientContext): Promise<XStep> {
    return this.failingToLogin('start', async () => {
      if (!this.available) throw new XSignInFailure('x-unavailable', 'no X_OAUTH_CLIENT_ID configured');
      await this.limit('x-sign-in', client);
      const linkUserId = await this.signedInUserId(req);
      const flow = newXFlow(
        callbackUrl(this.config.X_OAUTH_CALLBACK_URL, this.config.PUBLIC_ORIGIN, { protocol: req.protocol, host: req.host }),
        linkUserId,
      );
      const flowId = await this.store.save(flow);
      const location = authorizeUrl(this.config.X_OAUTH_AUTHORIZE_URL, {
        clientId: this.config.X_OAUTH_CLIENT_ID,
        redirectUri: flow.redirectUri,
        scopes: this.config.X_OAUTH_SCOPES,
        flow,
      });
      return { location, flowId };
    });
  }

  async finish(query: XCallbackQuery, flowId: string | undefined, client: ClientContext): Promise<XStep> {
    return this.failingToLogin('callback', async () => {
      if (!this.available) throw new XSignInFailure('x-unavailable', 'no X_OAUTH_CLIENT_ID configured');
      await this.limit('x-callback', client);
      // Taken (and so deleted) first, whatever X answered: a state is good for one callback only.
      const flow = flowId && FLOW_ID.test(flowId) ? await this.store.take(flowId) : undefined;
      if (query.error) {
        throw new XSignInFailure(query.error === 'access_denied' ? 'x-denied' : 'failed', `X answered error=${query.error.slice(0, 100)}`);
      }
      if (!flow || !sameState(flow.state, query.state))
        throw new XSignInFailure('x-state', flow ? 'state does not match the cookie' : 'no live flow for this cookie');
      if (!query.code) throw new XSignInFailure('x-token', 'X came back without a code');
      const accessToken = await this.x.exchangeCode({ code: query.code, codeVerifier: flow.codeVerifier, redirectUri: flow.redirectUri });
      const xUser = await this.x.currentUser(accessToken);
      const signedIn = await this.signIn(flow, xUser, client);
      return { location: signedIn.user.walletAddress ? AFTER_X_SIGN_IN.ready : AFTER_X_SIGN_IN.needsWallet, signedIn };
    });
  }

  private async signIn(
    flow: XFlow,
    xUser: { id: string; username: string; name?: string | undefined; profile_image_url?: string | undefined },
    client: ClientContext,
  ): Promise<SignedIn> {
    try {
      const result = await this.identity.signInWithX({
        xUserId: xUser.id,
        xUsername: xUser.username,
        name: xUser.name,
        profileImageUrl: xUser.profile_image_url,
        linkUserId: flow.linkUserId,
        client: { ip: client.ip, userAgent: client.userAgent },
      });
      if (!result.user || !result.session) throw new Error('identity answered SignInWithX without a user or a session');
      return { user: result.user, session: result.session };
    } catch (err) {
      throw new XSignInFailure(
        codeForIdentityError(err),
        `identity refused the sign-in with X: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  /** The signed-in account starting the flow (it will be linked), if the cookie names a live session. */
  private async signedInUserId(req: FastifyRequest): Promise<string | undefined> {
    try {
      return (await this.sessions.validate(req))?.user.id;
    } catch (err) {
      // identity away: start as signed out; the callback needs identity and says so if it is still away.
      this.log.warn({ err }, 'sign-in with X: could not check the current session; starting signed out');
      return undefined;
    }
  }

  /** The X flow's attempt limits (http/limits.ts), its refusals words of the flow: every answer of it is a redirect. */
  private async limit(action: 'x-sign-in' | 'x-callback', client: ClientContext): Promise<void> {
    try {
      await this.limits.hit(action, { ip: client.ip });
    } catch (err) {
      if (err instanceof LimitReached) throw new XSignInFailure('x-rate-limited', `over the ${action} limit for ${client.ip}`);
      throw new XSignInFailure('x-unavailable-now', 'the rate limiter failed', { cause: err });
    }
  }

  private async failingToLogin(step: 'start' | 'callback', work: () => Promise<XStep>): Promise<XStep> {
    try {
      return await work();
    } catch (err) {
      const failure =
        err instanceof XSignInFailure
          ? err
          : new XSignInFailure('failed', err instanceof Error ? err.message : String(err), { cause: err });
      const level =
        failure.code === 'failed' || failure.code === 'x-unavailable-now' || failure.code === 'x-token' || failure.code === 'x-profile'
          ? 'warn'
          : 'info';
      this.log[level]({ step, code: failure.code, reason: failure.message, err: failure.cause }, 'sign-in with X ended at /login');
      return { location: loginErrorLocation(failure.code) };
    }
  }
}
