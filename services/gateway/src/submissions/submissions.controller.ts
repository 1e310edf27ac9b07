import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { bareContentType, isVideoContentType, VIDEO_MESSAGES } from '@clipit/field-rules';
import type { StorageDriver } from '@clipit/storage';
import { BadRequestException, Controller, Inject, Param, PayloadTooLargeException, Query, Req, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, type UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { LOGGER } from '@clipit/service-kit';
import { STORAGE } from '@clipit/storage';
import { SUBMISSIONS_CLIENT, type SubmissionsClient } from '../clients.js';
import { submissionsRoutes } from './submissions.routes.js';
import {
  toSubmissionJson,
  type CreateSubmissionBody,
  type FinalizeVideoUploadBody,
  type SubmissionJson,
  type UploadVideoFields,
  type VideoUploadUrlBody,
} from './submissions.schemas.js';
import { ByteLimit, VIDEO_FIELD, videoMultipartOptions } from './video-upload.js';

export const VIDEO_REQUIRED = 'Video Required: choose a video file to upload (form field "video")';

/** The clip submission flow of spec 01 §3, §4: create, then a video by upload URL + finalize or in one multipart request. */
@Controller()
export class SubmissionsController {
  constructor(
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  @Endpoint(submissionsRoutes.create)
  @UseGuards(SessionGuard)
  async create(@CurrentSession() session: SessionPrincipal, @ValidBody() body: CreateSubmissionBody): Promise<SubmissionJson> {
    const created = await this.submissions.createSubmission({
      userId: session.user.id,
      name: body.name,
      url: body.url,
      externalId: body.externalId ?? undefined,
      authorHandle: body.authorHandle ?? undefined,
      walletAddress: body.walletAddress ?? undefined,
      additionalInfo: body.additionalInfo ?? undefined,
      tokenId: body.tokenId ?? undefined,
      streamerId: body.streamerId ?? undefined,
      userWalletAddress: session.user.walletAddress || undefined,
    });
    return toSubmissionJson(created);
  }

  @Endpoint(submissionsRoutes.listMine)
  @UseGuards(SessionGuard)
  async listMine(@CurrentSession() session: SessionPrincipal): Promise<SubmissionJson[]> {
    const { submissions } = await this.submissions.listMySubmissions({ userId: session.user.id });
    return (submissions ?? []).map(toSubmissionJson);
  }

  @Endpoint(submissionsRoutes.videoUploadUrl)
  @UseGuards(SessionGuard)
  async videoUploadUrl(@CurrentSession() session: SessionPrincipal, @ValidBody() body: VideoUploadUrlBody) {
    const upload = await this.submissions.createVideoUpload({ userId: session.user.id, submissionId: body.submissionId });
    const uploadUrl =
      upload.presignedUrl || `/api/submissions/uploads/${encodeURIComponent(upload.videoId)}?token=${encodeURIComponent(upload.uploadToken)}`;
    return { uploadUrl, videoId: upload.videoId };
  }

  /**
   * The gateway's own upload URL (filesystem storage): the bytes stream into storage as they arrive and
   * are cut off past the limit, leaving nothing behind; the upload is then refused with the reason.
   */
  @Endpoint(submissionsRoutes.putUpload)
  async putUpload(@Param('videoId') videoId: string, @Query('token') token: string | undefined, @Req() req: FastifyRequest) {
    const body = req.body as Readable | undefined;
    const authorized = await this.submissions.authorizeVideoUpload({ videoId, uploadToken: typeof token === 'string' ? token : '' });
    const maxBytes = Number(authorized.maxBytes);
    const contentType = req.headers['content-type'];
    if (!body || typeof (body as Partial<Readable>).pipe !== 'function' || !isVideoContentType(contentType)) {
      throw new BadRequestException(VIDEO_MESSAGES.invalidType);
    }
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await this.abort(videoId, VIDEO_MESSAGES.tooLarge);
      throw new PayloadTooLargeException(VIDEO_MESSAGES.tooLarge);
    }
    const limit = new ByteLimit(maxBytes);
    try {
      const stored = await this.storage.put(authorized.storageKey, body.pipe(limit), bareContentType(contentType));
      return { videoId, size: stored.size };
    } catch (err) {
      body.unpipe(limit);
      body.resume();
      if (err instanceof PayloadTooLargeException || limit.bytes > maxBytes) {
        await this.abort(videoId, VIDEO_MESSAGES.tooLarge);
        throw new PayloadTooLargeException(VIDEO_MESSAGES.tooLarge);
      }
      throw err;
    }
  }

  @Endpoint(submissionsRoutes.finalize)
  @UseGuards(SessionGuard)
  async finalize(@CurrentSession() session: SessionPrincipal, @ValidBody() body: FinalizeVideoUploadBody): Promise<SubmissionJson> {
    return toSubmissionJson(
      await this.submissions.finalizeVideoUpload({ userId: session.user.id, submissionId: body.submissionId, videoId: body.videoId }),
    );
  }

  /** Multipart in one request: the file is already on local disk (cut off at the limit) when this runs. */
  @Endpoint(submissionsRoutes.uploadVideo)
  @UseGuards(SessionGuard)
  @UseInterceptors(FileInterceptor(VIDEO_FIELD, videoMultipartOptions()))
  async uploadVideo(
    @CurrentSession() session: SessionPrincipal,
    @ValidBody() fields: UploadVideoFields,
    @UploadedFile() video: UploadedMultipartFile | undefined,
  ): Promise<SubmissionJson> {
    if (!video?.path) throw new BadRequestException(VIDEO_REQUIRED);
    const tempFile = video.path;
    try {
      const contentType = bareContentType(video.mimetype);
      const fileName = video.originalname.slice(0, 255);
      const upload = await this.submissions.createVideoUpload({ userId: session.user.id, submissionId: fields.submissionId, contentType, fileName });
      try {
        await this.storage.put(upload.storageKey, createReadStream(tempFile), contentType);
      } catch (err) {
        await this.abort(upload.videoId, VIDEO_MESSAGES.invalid);
        throw err;
      }
      return toSubmissionJson(
        await this.submissions.finalizeVideoUpload({
          userId: session.user.id,
          submissionId: fields.submissionId,
          videoId: upload.videoId,
          contentType,
          fileName,
        }),
      );
    } finally {
      await rm(tempFile, { force: true });
    }
  }

  private async abort(videoId: string, reason: string): Promise<void> {
    await this.submissions.abortVideoUpload({ videoId, reason }).catch((err: unknown) => this.log.warn({ err, videoId }, 'could not abort a video upload'));
  }
}

