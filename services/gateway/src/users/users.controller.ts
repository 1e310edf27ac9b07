import { Controller, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../feed/read-cache.js';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { AccountService } from './account.service.js';
import { usersRoutes } from './users.routes.js';
import { ImageUploadService } from './image-upload.service.js';
import type { CurrentUser } from '../auth/current-user.js';
import { currentUserAnswer } from './current-user-answer.js';
import {
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
    private readonly account: AccountService,
    private readonly images: ImageUploadService,
  ) {}

  // The hot path: the guard already has the user (from the session cache, or its one ResolveSession call),
  // and its JSON is made once per cached user; usually answered at the front (signed-in-front.ts, ADR 0045).
  @Endpoint(usersRoutes.me)
  me(@Res() reply: FastifyReply, @CurrentSession() session: SessionPrincipal): FastifyReply {
    return sendJson(reply.request, reply, currentUserAnswer(session.user), false);
  }

  @Endpoint(usersRoutes.authUser)
  authUser(@Res() reply: FastifyReply, @CurrentSession() session: SessionPrincipal): FastifyReply {
    return sendJson(reply.request, reply, currentUserAnswer(session.user), false);
  }

  /** The wallet-change limit (a wrong password costs an attempt) is the route's. */
  @Endpoint(usersRoutes.updateProfile)
  updateProfile(@CurrentSession() session: SessionPrincipal, @ValidBody() body: UpdateProfileBody): Promise<CurrentUser> {
    return this.account.updateWallet(session, body);
  }

  @Endpoint(usersRoutes.sessions)
  listSessions(@CurrentSession() session: SessionPrincipal): Promise<ActiveSessions> {
    return this.account.listSessions(session);
  }

  @Endpoint(usersRoutes.endOtherSessions)
  endOtherSessions(@CurrentSession() session: SessionPrincipal): Promise<{ endedSessions: number }> {
    return this.account.endOtherSessions(session);
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
