import { Controller, Res, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, type UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import type { FastifyReply } from 'fastify';
import { Client, type ClientContext } from '../http/client.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { authRoutes } from './auth.routes.js';
import type { ConfirmResetBody, LoginBody, ResetPasswordBody, SignupBody, VerifyEmailBody } from './auth.schemas.js';
import { AuthService } from './auth.service.js';
import { PROFILE_PICTURE_FIELD } from './profile-picture.js';
import { SessionCookies } from './session-cookies.js';
import { CurrentSession, SessionGuard, type SessionPrincipal } from './session.strategy.js';

/** Sign-up, login, password reset, e-mail confirmation and logout: identity decides, the session cookie is set here. */
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly cookies: SessionCookies,
  ) {}

  @Endpoint(authRoutes.signup)
  @UseInterceptors(FileInterceptor(PROFILE_PICTURE_FIELD))
  signUp(
    @ValidBody() body: SignupBody,
    @UploadedFile() picture: UploadedMultipartFile | undefined,
    @Client() client: ClientContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.cookies.start(reply, this.auth.signUp(body, picture?.buffer, client));
  }

  @Endpoint(authRoutes.login)
  logIn(@ValidBody() body: LoginBody, @Client() client: ClientContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.cookies.start(reply, this.auth.logIn(body, client));
  }

  @Endpoint(authRoutes.resetPassword)
  resetPassword(@ValidBody() body: ResetPasswordBody, @Client() client: ClientContext) {
    return this.auth.requestPasswordReset(body, client);
  }

  @Endpoint(authRoutes.confirmPasswordReset)
  confirmPasswordReset(@ValidBody() body: ConfirmResetBody, @Client() client: ClientContext) {
    return this.auth.confirmPasswordReset(body.token, client);
  }

  @Endpoint(authRoutes.verifyEmail)
  verifyEmail(@ValidBody() body: VerifyEmailBody) {
    return this.auth.verifyEmail(body.token);
  }

  @Endpoint(authRoutes.sendEmailVerification)
  @UseGuards(SessionGuard)
  sendEmailVerification(@CurrentSession() session: SessionPrincipal) {
    return this.auth.sendEmailVerification(session.user.id);
  }

  @Endpoint(authRoutes.logout)
  async logOut(@Res({ passthrough: true }) reply: FastifyReply) {
    await this.cookies.end(reply);
    return { ok: true as const };
  }

  @Endpoint(authRoutes.logoutLink)
  async logOutLink(@Res() reply: FastifyReply): Promise<void> {
    await this.cookies.end(reply);
    await reply.status(302).header('Location', '/').type('text/plain; charset=utf-8').send('Signed out. Redirecting to /');
  }
}
