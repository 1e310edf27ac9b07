import { status as GrpcStatus } from '@grpc/grpc-js';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { identityV1 } from '@clipit/contracts';
import { SIGN_IN_MESSAGES } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import { limitAttempts } from '../http/attempt-limit.js';
import type { ClientContext } from '../http/client.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { RATE_LIMITER } from '../tokens.js';
import type { RateLimiter } from '@clipit/service-kit';
import type { LoginBody, ResetPasswordBody, SignupBody } from './auth.schemas.js';
import { verifyPicture } from './profile-picture.js';

/** An AuthResult whose user and session identity is bound to send. */
export interface SignedIn {
  user: identityV1.User;
  session: identityV1.Session;
  claimedProfile?: identityV1.ClaimedProfile;
}

/**
 * Sign-up, login, password reset and logout: the attempt limits are checked here, then identity
 * (which owns accounts and sessions) decides.
 */
@Injectable()
export class AuthService {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
  ) {}

  async signUp(body: SignupBody, picture: Buffer | undefined, client: ClientContext): Promise<SignedIn> {
    const pictureType = picture && picture.length > 0 ? verifyPicture(picture) : undefined;
    await this.limit('signup', client, body.twitterHandle);
    const result = await this.identity.signUp({
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
    });
    return signedIn(result);
  }

  async logIn(body: LoginBody, client: ClientContext): Promise<SignedIn> {
    await this.limit('login', client, body.twitterHandle);
    try {
      return signedIn(
        await this.identity.logIn({
          twitterHandle: body.twitterHandle,
          password: body.password,
          client: { ip: client.ip, userAgent: client.userAgent },
        }),
      );
    } catch (err) {
      // Whatever identity's wording, a failed login reads the same for a wrong handle and a wrong password.
      if (err instanceof GrpcCallError && err.code === GrpcStatus.UNAUTHENTICATED)
        throw new UnauthorizedException(SIGN_IN_MESSAGES.invalidCredentials);
      throw err;
    }
  }

  /** Asks identity for a reset by link (ADR 0031); it answers the same whether or not an account matched. */
  async requestPasswordReset(body: ResetPasswordBody, client: ClientContext): Promise<void> {
    await this.limit('reset-password', client, body.twitterHandle);
    await this.identity.requestPasswordReset({
      twitterHandle: body.twitterHandle,
      email: body.email,
      newPassword: body.newPassword,
      client: { ip: client.ip, userAgent: client.userAgent },
    });
  }

  /** Applies the reset a link's token stands for; answers the account whose sessions ended. */
  async confirmPasswordReset(token: string, client: ClientContext): Promise<{ userId: string }> {
    await this.limit('reset-confirm', client);
    const { userId } = await this.identity.confirmPasswordReset({ token, client: { ip: client.ip, userAgent: client.userAgent } });
    return { userId };
  }

  async verifyEmail(token: string, client: ClientContext): Promise<{ userId: string }> {
    await this.limit('verify-email', client);
    const user = await this.identity.verifyEmail({ token });
    return { userId: user.id };
  }

  async sendEmailVerification(userId: string, client: ClientContext): Promise<boolean> {
    await this.limit('verify-email-send', client);
    return (await this.identity.sendEmailVerification({ userId })).sent;
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

  private limit(action: string, client: ClientContext, handle?: string): Promise<void> {
    return limitAttempts(this.limiter, action, client.ip, handle);
  }
}

function signedIn(result: identityV1.AuthResult): SignedIn {
  if (!result.user || !result.session) throw new Error('identity answered without a user or a session');
  return { user: result.user, session: result.session, ...(result.claimedProfile ? { claimedProfile: result.claimedProfile } : {}) };
}
