import { Controller, Inject, Param, Query, Req, Res, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, type UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { uuidParam } from '../http/path-params.js';
import { SUBMISSIONS_CLIENT, type SubmissionsClient } from '../clients.js';
import { SubmissionStreams } from './submission-stream.js';
import { submissionsRoutes } from './submissions.routes.js';
import {
  toCreateSubmission,
  toMetricsHistoryJson,
  toSubmissionJson,
  type CreateSubmissionBody,
  type FinalizeVideoUploadBody,
  type MetricsHistoryJson,
  type SubmissionJson,
  type UploadVideoFields,
  type VideoUploadUrlBody,
} from './submissions.schemas.js';
import { VIDEO_FIELD, videoMultipartOptions } from './video-upload.js';
import { VideoUploadService } from './video-upload.service.js';

/**
 * The clip submission flow of spec 01 §3, §4: create, then a video by upload URL + finalize or in one
 * multipart request. One call per route: the submissions service's for the posts, VideoUploadService's
 * for the video (it streams the bytes).
 */
@Controller()
export class SubmissionsController {
  constructor(
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
    private readonly uploads: VideoUploadService,
    private readonly streams: SubmissionStreams,
  ) {}

  /** Counted against the day's submissions of the user and of the address (the route's limit), given back when none was made. */
  @Endpoint(submissionsRoutes.create)
  @UseGuards(SessionGuard)
  async create(@CurrentSession() session: SessionPrincipal, @ValidBody() body: CreateSubmissionBody): Promise<SubmissionJson> {
    return toSubmissionJson(await this.submissions.createSubmission(toCreateSubmission(session.user, body)));
  }

  @Endpoint(submissionsRoutes.listMine)
  @UseGuards(SessionGuard)
  async listMine(@CurrentSession() session: SessionPrincipal): Promise<SubmissionJson[]> {
    const { submissions } = await this.submissions.listMySubmissions({ userId: session.user.id });
    return (submissions ?? []).map(toSubmissionJson);
  }

  /** Server-sent events of the user's own submissions changing (SubmissionStreams); the session is checked when it opens. */
  @Endpoint(submissionsRoutes.stream)
  @UseGuards(SessionGuard)
  stream(@CurrentSession() session: SessionPrincipal, @Res() reply: FastifyReply): void {
    this.streams.open(session.user.id, reply);
  }

  /** The owner's (or an admin's) view of a submission's post metrics; anyone else gets the same 404 as for no submission. */
  @Endpoint(submissionsRoutes.metricsHistory)
  @UseGuards(SessionGuard)
  async metricsHistory(@CurrentSession() session: SessionPrincipal, @Param('id') id: string): Promise<MetricsHistoryJson> {
    const submissionId = uuidParam(id, 'Invalid submission id');
    return toMetricsHistoryJson(
      await this.submissions.getMetricsHistory({ submissionId, userId: session.user.id, isAdmin: session.user.role === 'admin' }),
    );
  }

  @Endpoint(submissionsRoutes.videoUploadUrl)
  @UseGuards(SessionGuard)
  videoUploadUrl(@CurrentSession() session: SessionPrincipal, @ValidBody() body: VideoUploadUrlBody) {
    return this.uploads.uploadUrl(session.user.id, body.submissionId);
  }

  /** The gateway's own upload URL (filesystem storage); see VideoUploadService.put. */
  @Endpoint(submissionsRoutes.putUpload)
  putUpload(@Param('videoId') videoId: string, @Query('token') token: string | undefined, @Req() req: FastifyRequest) {
    return this.uploads.put(videoId, token, {
      body: req.body,
      contentType: req.headers['content-type'],
      contentLength: req.headers['content-length'],
    });
  }

  @Endpoint(submissionsRoutes.finalize)
  @UseGuards(SessionGuard)
  finalize(@CurrentSession() session: SessionPrincipal, @ValidBody() body: FinalizeVideoUploadBody): Promise<SubmissionJson> {
    return this.uploads.finalize(session.user.id, body.submissionId, body.videoId);
  }

  /** Multipart in one request: the interceptor has the file on local disk, cut off at the limit, when this runs. */
  @Endpoint(submissionsRoutes.uploadVideo)
  @UseGuards(SessionGuard)
  @UseInterceptors(FileInterceptor(VIDEO_FIELD, videoMultipartOptions()))
  uploadVideo(
    @CurrentSession() session: SessionPrincipal,
    @ValidBody() fields: UploadVideoFields,
    @UploadedFile() video: UploadedMultipartFile | undefined,
  ): Promise<SubmissionJson> {
    return this.uploads.uploadFile(session.user.id, fields.submissionId, video);
  }
}
