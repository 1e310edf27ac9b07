import { status as GrpcStatus } from '@grpc/grpc-js';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { identityV1 } from '@clipit/contracts';
import { EMAIL_VERIFICATION_MESSAGES, RESET_LINK_MESSAGES, SIGN_IN_MESSAGES } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import type { ClientContext } from '../http/client.js';
import { busyOnTimeout } from '../http/http-errors.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import type { LoginBody, ResetPasswordBody, SignupBody } from './auth.schemas.js';
import { verifyPicture } from './profile-picture.js';
import { SESSION_CACHE, type SessionCache } from './session-cache.js';

/** An AuthResult whose user and session identity is bound to send. */
export interface SignedIn {
  user: identityV1.User;
  session: identityV1.Session;
  claimedProfile?: identityV1.ClaimedProfile;
}

/**
 * Sign-up, login, password reset and logout: identity (which owns accounts and sessions) decides; the
 * attempt limits are the routes' (their `limit`, ADR 0035).
 */
@Injectable()
export class AuthService {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
  ) {}

  async signUp(body: SignupBody, picture: Buffer | undefined, client: ClientContext): Promise<SignedIn> {
    const pictureType = picture && picture.length > 0 ? verifyPicture(picture) : undefined;
    const result = await busyOnTimeout(
      'sign-up',
      this.identity.signUp({
        email: body.email,
        displayName: body.displayName,
        twitterHandle: body.twitterHandle,
        walletAddress: body.walletAddress,
        role: body.role,
        tokenLink: body.tokenLink,
        claimCode: body.claimCode,
        password: body.password,
        profilePicture: pictureType ? picture : undefined,
        profilePictureContentType: pictureType,
        client: { ip: client.ip, userAgent: client.userAgent },
      }),
    );
    return signedIn(result);
  }

  async logIn(body: LoginBody, client: ClientContext): Promise<SignedIn> {
    try {
      return signedIn(
        await busyOnTimeout(
          'log-in',
          this.identity.logIn({
            twitterHandle: body.twitterHandle,
            password: body.password,
            client: { ip: client.ip, userAgent: client.userAgent },
          }),
        ),
      );
    } catch (err) {
      // Whatever identity's wording, a failed login reads the same for a wrong handle and a wrong password.
      if (err instanceof GrpcCallError && err.code === GrpcStatus.UNAUTHENTICATED)
        throw new UnauthorizedException(SIGN_IN_MESSAGES.invalidCredentials);
      throw err;
    }
  }

  /** Asks identity for a reset by link (ADR 0031); it answers the same whether or not an account matched. */
  async requestPasswordReset(body: ResetPasswordBody, client: ClientContext): Promise<{ message: string }> {
    await busyOnTimeout(
      'reset-request',
      this.identity.requestPasswordReset({
        twitterHandle: body.twitterHandle,
        email: body.email,
        newPassword: body.newPassword,
        client: { ip: client.ip, userAgent: client.userAgent },
      }),
    );
    return { message: RESET_LINK_MESSAGES.sent };
  }

  /** Applies the reset a link's token stands for. */
  async confirmPasswordReset(token: string, client: ClientContext): Promise<{ message: string }> {
    const { userId } = await this.identity.confirmPasswordReset({ token, client: { ip: client.ip, userAgent: client.userAgent } });
    // Identity ended the account's sessions: this replica forgets them now, the others on `user.sessions-ended`.
    this.sessions.invalidateUser(userId);
    return { message: RESET_LINK_MESSAGES.done };
  }

  async verifyEmail(token: string): Promise<{ message: string }> {
    const user = await this.identity.verifyEmail({ token });
    // The next /api/user/me on this replica shows the confirmed address.
    this.sessions.invalidateUser(user.id);
    return { message: EMAIL_VERIFICATION_MESSAGES.verified };
  }

  async sendEmailVerification(userId: string): Promise<{ sent: boolean; message: string }> {
    const { sent } = await this.identity.sendEmailVerification({ userId });
    return { sent, message: sent ? EMAIL_VERIFICATION_MESSAGES.sent : EMAIL_VERIFICATION_MESSAGES.alreadyVerified };
  }

  /** Ends the session if there is one; a session identity no longer knows is already ended. */
  async logOut(sid: string | undefined): Promise<void> {
    if (!sid) return;
    try {
      await this.identity.logOut({ sid });
    } catch (err) {
      if (
        err instanceof GrpcCallError &&
        [GrpcStatus.UNAUTHENTICATED, GrpcStatus.NOT_FOUND, GrpcStatus.INVALID_ARGUMENT].includes(err.code)
      )
        return;
      throw err;
    }
  }
}

function signedIn(result: identityV1.AuthResult): SignedIn {
  if (!result.user || !result.session) throw new Error('identity answered without a user or a session');
  return { user: result.user, session: result.session, ...(result.claimedProfile ? { claimedProfile: result.claimedProfile } : {}) };
}
