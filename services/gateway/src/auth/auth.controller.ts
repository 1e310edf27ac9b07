import { CONFIG } from '@clipit/service-kit';
import { Controller, Inject, Req, Res, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, type UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { toCurrentUser } from './current-user.js';
import { authRoutes } from './auth.routes.js';
import { EMAIL_VERIFICATION_MESSAGES, RESET_LINK_MESSAGES } from '@clipit/field-rules';
import { CurrentSession, SessionGuard, type SessionPrincipal } from './session.strategy.js';
import type { ConfirmResetBody, LoginBody, ResetPasswordBody, SignupBody, VerifyEmailBody } from './auth.schemas.js';
import { clientOf } from '../http/client.js';
import { AuthService, type SignedIn } from './auth.service.js';
import { PROFILE_PICTURE_FIELD } from './profile-picture.js';
import { SESSION_CACHE, type SessionCache } from './session-cache.js';
import { clearedSessionCookieOptions, SESSION_COOKIE, sessionCookieOptions } from '../http/session-cookie.js';

@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
  ) {}

  @Endpoint(authRoutes.signup)
  @UseInterceptors(FileInterceptor(PROFILE_PICTURE_FIELD))
  async signUp(
    @ValidBody() body: SignupBody,
    @UploadedFile() picture: UploadedMultipartFile | undefined,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.auth.signUp(body, picture?.buffer, clientOf(req));
    this.startSession(req, reply, result);
    return {
      user: toCurrentUser(result.user),
      ...(result.claimedProfile ? { claimedProfile: { displayName: result.claimedProfile.displayName } } : {}),
    };
  }

  @Endpoint(authRoutes.login)
  async logIn(@ValidBody() body: LoginBody, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await this.auth.logIn(body, clientOf(req));
    this.startSession(req, reply, result);
    return { user: toCurrentUser(result.user) };
  }

  @Endpoint(authRoutes.resetPassword)
  async resetPassword(@ValidBody() body: ResetPasswordBody, @Req() req: FastifyRequest) {
    await this.auth.requestPasswordReset(body, clientOf(req));
    return { message: RESET_LINK_MESSAGES.sent };
  }

  @Endpoint(authRoutes.confirmPasswordReset)
  async confirmPasswordReset(@ValidBody() body: ConfirmResetBody, @Req() req: FastifyRequest) {
    const { userId } = await this.auth.confirmPasswordReset(body.token, clientOf(req));
    // Identity ended the account's sessions: this replica forgets them now, the others on `user.sessions-ended`.
    this.sessions.invalidateUser(userId);
    return { message: RESET_LINK_MESSAGES.done };
  }

  @Endpoint(authRoutes.verifyEmail)
  async verifyEmail(@ValidBody() body: VerifyEmailBody, @Req() req: FastifyRequest) {
    const { userId } = await this.auth.verifyEmail(body.token, clientOf(req));
    // The next /api/user/me on this replica shows the confirmed address.
    this.sessions.invalidateUser(userId);
    return { message: EMAIL_VERIFICATION_MESSAGES.verified };
  }

  @Endpoint(authRoutes.sendEmailVerification)
  @UseGuards(SessionGuard)
  async sendEmailVerification(@CurrentSession() session: SessionPrincipal, @Req() req: FastifyRequest) {
    const sent = await this.auth.sendEmailVerification(session.user.id, clientOf(req));
    return { sent, message: sent ? EMAIL_VERIFICATION_MESSAGES.sent : EMAIL_VERIFICATION_MESSAGES.alreadyVerified };
  }

  @Endpoint(authRoutes.logout)
  async logOut(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.endSession(req, reply);
    return { ok: true as const };
  }

  @Endpoint(authRoutes.logoutLink)
  async logOutLink(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endSession(req, reply);
    await reply.status(302).header('Location', '/').type('text/plain; charset=utf-8').send('Signed out. Redirecting to /');
  }

  private startSession(req: FastifyRequest, reply: FastifyReply, result: SignedIn): void {
    const options = sessionCookieOptions({
      expiresAt: result.session.expiresAt,
      secureMode: this.config.COOKIE_SECURE,
      requestProtocol: req.protocol,
    });
    reply.setCookie(SESSION_COOKIE, result.session.sid, options);
  }

  private async endSession(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    // Cleared first: even if identity cannot be reached, this browser is signed out.
    reply.clearCookie(SESSION_COOKIE, clearedSessionCookieOptions(this.config.COOKIE_SECURE, req.protocol));
    const sid = req.cookies[SESSION_COOKIE];
    try {
      await this.auth.logOut(sid);
    } finally {
      // This replica forgets it at once (after identity deleted it, so no racing request caches it again);
      // the others on identity's `session.ended`.
      if (sid) this.sessions.invalidateSession(sid);
    }
  }
}
