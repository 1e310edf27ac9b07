import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { bareContentType, isVideoContentType, VIDEO_MESSAGES } from '@clipit/field-rules';
import type { StorageDriver } from '@clipit/storage';
import { BadRequestException, Inject, Injectable, PayloadTooLargeException } from '@nestjs/common';
import type { UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import type { Logger } from 'pino';
import { LOGGER } from '@clipit/service-kit';
import { STORAGE } from '@clipit/storage';
import { SUBMISSIONS_CLIENT, type SubmissionsClient } from '../clients.js';
import { toSubmissionJson, type SubmissionJson } from './submissions.schemas.js';
import { ByteLimit } from './video-upload.js';

export const VIDEO_REQUIRED = 'Video Required: choose a video file to upload (form field "video")';

/** A PUT to the gateway's own upload URL, as the controller hands it over. */
export interface IncomingUpload {
  body: unknown;
  contentType: string | undefined;
  contentLength: string | undefined;
}

/**
 * A submission's video through the gateway: the upload URL, the bytes of a PUT or a multipart request
 * streamed into storage with the size cut-off, and finalize. The rules stay with the submissions
 * service; what is the gateway's is streaming: counting bytes as they arrive and cutting a request
 * off at the limit, leaving nothing behind and the upload refused (aborted) with the reason.
 */
@Injectable()
export class VideoUploadService {
  constructor(
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** A presigned PUT on S3; on filesystem storage the gateway's own URL, carrying the one-time token. */
  async uploadUrl(userId: string, submissionId: string): Promise<{ uploadUrl: string; videoId: string }> {
    const upload = await this.submissions.createVideoUpload({ userId, submissionId });
    const uploadUrl =
      upload.presignedUrl ||
      `/api/submissions/uploads/${encodeURIComponent(upload.videoId)}?token=${encodeURIComponent(upload.uploadToken)}`;
    return { uploadUrl, videoId: upload.videoId };
  }

  /** The gateway's upload URL (filesystem storage): the bytes go to storage as they arrive, cut off past the limit. */
  async put(videoId: string, token: string | undefined, incoming: IncomingUpload): Promise<{ videoId: string; size: number }> {
    const body = incoming.body as Readable | undefined;
    const authorized = await this.submissions.authorizeVideoUpload({ videoId, uploadToken: typeof token === 'string' ? token : '' });
    const maxBytes = Number(authorized.maxBytes);
    if (!body || typeof (body as Partial<Readable>).pipe !== 'function' || !isVideoContentType(incoming.contentType)) {
      throw new BadRequestException(VIDEO_MESSAGES.invalidType);
    }
    const declared = Number(incoming.contentLength ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await this.abort(videoId, VIDEO_MESSAGES.tooLarge);
      throw new PayloadTooLargeException(VIDEO_MESSAGES.tooLarge);
    }
    const limit = new ByteLimit(maxBytes);
    try {
      const stored = await this.storage.put(authorized.storageKey, body.pipe(limit), bareContentType(incoming.contentType));
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

  async finalize(userId: string, submissionId: string, videoId: string): Promise<SubmissionJson> {
    return toSubmissionJson(await this.submissions.finalizeVideoUpload({ userId, submissionId, videoId }));
  }

  /**
   * Multipart in one request: the file is already on local disk (cut off at the limit) when this runs;
   * it becomes an upload, goes to storage and is finalized, and the temporary file goes whatever happens.
   */
  async uploadFile(userId: string, submissionId: string, video: UploadedMultipartFile | undefined): Promise<SubmissionJson> {
    if (!video?.path) throw new BadRequestException(VIDEO_REQUIRED);
    const tempFile = video.path;
    try {
      const contentType = bareContentType(video.mimetype);
      const fileName = video.originalname.slice(0, 255);
      const upload = await this.submissions.createVideoUpload({ userId, submissionId, contentType, fileName });
      try {
        await this.storage.put(upload.storageKey, createReadStream(tempFile), contentType);
      } catch (err) {
        await this.abort(upload.videoId, VIDEO_MESSAGES.invalid);
        throw err;
      }
      return toSubmissionJson(
        await this.submissions.finalizeVideoUpload({ userId, submissionId, videoId: upload.videoId, contentType, fileName }),
      );
    } finally {
      await rm(tempFile, { force: true });
    }
  }

  private async abort(videoId: string, reason: string): Promise<void> {
    await this.submissions
      .abortVideoUpload({ videoId, reason })
      .catch((err: unknown) => this.log.warn({ err, videoId }, 'could not abort a video upload'));
  }
}
