import { Controller, Inject, Param, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RateLimiter } from '@clipit/service-kit';
import { clientOf } from '../http/client.js';
import { SESSION_CACHE, type SessionCache } from '../auth/session-cache.js';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { limitAttempts } from '../http/attempt-limit.js';
import { RATE_LIMITER } from '../tokens.js';
import { usersRoutes } from './users.routes.js';
import { ImageUploadService } from './image-upload.service.js';
import { toCurrentUser, type CurrentUser } from '../auth/current-user.js';
import {
  toActiveSession,
  type ActiveSessions,
  type ImageUploadUrl,
  type ImageUploadUrlBody,
  type SetBannerBody,
  type SetProfilePictureBody,
  type UpdateDisplayNameBody,
  type UpdateProfileBody,
} from './users.schemas.js';

@Controller()
@UseGuards(SessionGuard)
export class UsersController {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly images: ImageUploadService,
  ) {}

  // The hot path: the guard already has the user (from the session cache, or its one ResolveSession call).
  @Endpoint(usersRoutes.me)
  me(@CurrentSession() session: SessionPrincipal): CurrentUser {
    return toCurrentUser(session.user);
  }

  @Endpoint(usersRoutes.authUser)
  authUser(@CurrentSession() session: SessionPrincipal): CurrentUser {
    return toCurrentUser(session.user);
  }

  @Endpoint(usersRoutes.updateProfile)
  async updateProfile(
    @CurrentSession() session: SessionPrincipal,
    @ValidBody() body: UpdateProfileBody,
    @Req() req: FastifyRequest,
  ): Promise<CurrentUser> {
    // A wrong password costs an attempt, per address and per account, as a login does.
    await limitAttempts(this.limiter, 'wallet-change', clientOf(req).ip, session.user.id);
    const user = await this.identity.updateWallet({
      userId: session.user.id,
      walletAddress: body.walletAddress,
      currentPassword: body.currentPassword,
      sid: session.sid,
    });
    // The next /api/user/me on this replica reads the new data; other replicas forget it on `user.updated`.
    this.sessions.invalidateUser(session.user.id);
    return toCurrentUser(user);
  }

  @Endpoint(usersRoutes.sessions)
  async listSessions(@CurrentSession() session: SessionPrincipal): Promise<ActiveSessions> {
    const { sessions } = await this.identity.listSessions({ userId: session.user.id, sid: session.sid });
    return { sessions: (sessions ?? []).map(toActiveSession) };
  }

  @Endpoint(usersRoutes.endOtherSessions)
  async endOtherSessions(@CurrentSession() session: SessionPrincipal): Promise<{ endedSessions: number }> {
    const { endedSessions } = await this.identity.endOtherSessions({ userId: session.user.id, sid: session.sid });
    // This replica forgets the account's sessions now (this one is simply resolved again); the others on `user.sessions-ended`.
    this.sessions.invalidateUser(session.user.id);
    return { endedSessions };
  }

  @Endpoint(usersRoutes.profilePictureUploadUrl)
  profilePictureUploadUrl(@CurrentSession() session: SessionPrincipal, @ValidBody() body: ImageUploadUrlBody): Promise<ImageUploadUrl> {
    return this.images.uploadUrl(session.user.id, 'profile', body);
  }

  @Endpoint(usersRoutes.bannerUploadUrl)
  bannerUploadUrl(@CurrentSession() session: SessionPrincipal, @ValidBody() body: ImageUploadUrlBody): Promise<ImageUploadUrl> {
    return this.images.uploadUrl(session.user.id, 'banner', body);
  }

  @Endpoint(usersRoutes.setProfilePicture)
  setProfilePicture(@CurrentSession() session: SessionPrincipal, @ValidBody() body: SetProfilePictureBody): Promise<CurrentUser> {
    return this.images.setImage(session.user.id, 'profile', body.profileImageUrl);
  }

  @Endpoint(usersRoutes.setBanner)
  setBanner(@CurrentSession() session: SessionPrincipal, @ValidBody() body: SetBannerBody): Promise<CurrentUser> {
    return this.images.setImage(session.user.id, 'banner', body.bannerImageUrl);
  }

  @Endpoint(usersRoutes.updateDisplayName)
  updateDisplayName(@CurrentSession() session: SessionPrincipal, @ValidBody() body: UpdateDisplayNameBody): Promise<CurrentUser> {
    return this.images.setDisplayName(session.user.id, body.displayName);
  }
}

/** The image upload URL on filesystem storage: its token authenticates it, so it sits outside the session guard. */
@Controller()
export class ImageUploadsController {
  constructor(private readonly images: ImageUploadService) {}

  @Endpoint(usersRoutes.putImageUpload)
  putImageUpload(@Param('uploadId') uploadId: string, @Query('token') token: string | undefined, @Req() req: FastifyRequest) {
    return this.images.put(uploadId, token, {
      body: req.body,
      contentType: req.headers['content-type'],
      contentLength: req.headers['content-length'],
    });
  }
}
