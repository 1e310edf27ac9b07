import { status as grpcStatus } from '@grpc/grpc-js';
import type { submissionsV1 } from '@clipit/contracts';
import { isVideoContentType, VIDEO_LIMITS } from '@clipit/field-rules';
import { CONFIG, currentCorrelationId, DomainError, invalid, LOGGER, notFound, tooMany, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import { utcDayStart } from '../domain/daily-limit.js';
import { messages } from '../domain/messages.js';
import { newVideoUpload } from '../domain/submission.factory.js';
import { toSubmissionMessage } from '../domain/submission.mapper.js';
import { newUploadToken } from '../domain/upload-token.js';
import {
  acceptsBytes,
  attachUpload,
  requireFinalizable,
  requireOwner,
  requireVideoSlot,
  startProcessing,
  stopProcessing,
  storedVideoRefusal,
} from '../domain/video.js';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import type { VideoUploadEntity } from '../entities/video-upload.entity.js';
import { MEDIA_QUEUE, type MediaQueuePort } from '../ports.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { VideoStorageRepository } from '../repositories/video-storage.repository.js';
import { VideoStateService } from './video-state.service.js';

type Finalized =
  | { kind: 'accepted'; submission: SubmissionEntity; upload: VideoUploadEntity }
  | { kind: 'refused'; refusal: DomainError; storageKey: string };

/**
 * A submission's video upload: the upload URL, the gateway's check of its token, finalize (which
 * queues the video for the media worker) and abort. The submission's row is locked before its
 * upload's in every transaction, the order the verdicts and the sweeper use too.
 */
@Injectable()
export class VideoUploadService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly storage: VideoStorageRepository,
    private readonly videos: VideoStateService,
    @Inject(MEDIA_QUEUE) private readonly queue: MediaQueuePort,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Checked against the daily limit here already, so nothing is stored past it. */
  async createVideoUpload(request: submissionsV1.CreateVideoUploadRequest): Promise<submissionsV1.VideoUpload> {
    if (request.contentType !== undefined && request.contentType !== '' && !isVideoContentType(request.contentType)) {
      throw invalid(messages.invalidFileType);
    }
    const now = new Date();
    const ttlSeconds = this.config.UPLOAD_URL_TTL_SECONDS;
    const token = newUploadToken();

    const upload = await this.transactions.run(async (tx) => {
      const submission = await this.ownSubmission(tx, request.userId, request.submissionId);
      requireVideoSlot(submission);
      await this.requireDailyAllowance(tx, request.userId, now);
      const upload = newVideoUpload(
        {
          submissionId: submission.id,
          userId: request.userId,
          tokenHash: token.hash,
          contentType: request.contentType || null,
          fileName: request.fileName || null,
          expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
        },
        now,
      );
      await this.repo.insertUpload(tx, upload);
      attachUpload(submission, upload, now);
      await this.repo.save(tx, submission);
      return upload;
    });

    const presignedUrl = (await this.storage.presignedPutUrl(upload.storageKey, ttlSeconds)) ?? '';
    return {
      videoId: upload.id,
      submissionId: request.submissionId,
      storageKey: upload.storageKey,
      presignedUrl,
      // The secret goes only to a gateway upload URL: a presigned URL carries its own signature.
      uploadToken: presignedUrl === '' ? token.token : '',
      expiresAt: upload.expiresAt.toISOString(),
      maxBytes: VIDEO_LIMITS.maxBytes,
    };
  }

  async authorizeVideoUpload(request: submissionsV1.AuthorizeVideoUploadRequest): Promise<submissionsV1.AuthorizedUpload> {
    const upload = await this.repo.findUpload(request.videoId);
    if (!acceptsBytes(upload, request.uploadToken, new Date())) throw notFound(messages.uploadNotFound);
    return { videoId: upload.id, storageKey: upload.storageKey, maxBytes: VIDEO_LIMITS.maxBytes };
  }

  /**
   * The bytes are in storage. Checks what can be checked without reading them (present, not empty,
   * not over 150 MB, a video type), marks the video as processing and queues it. A refused file is
   * removed and its reason kept on the submission.
   */
  async finalizeVideoUpload(request: submissionsV1.FinalizeVideoUploadRequest): Promise<submissionsV1.Submission> {
    const now = new Date();
    const result = await this.transactions.run(async (tx): Promise<Finalized> => {
      const submission = await this.ownSubmission(tx, request.userId, request.submissionId);
      const upload = requireFinalizable(submission, await this.repo.lockUpload(tx, request.videoId), request.userId, now);

      const stored = await this.storage.stat(upload.storageKey);
      if (!stored) throw invalid(messages.uploadNotReceived);
      const contentType = isVideoContentType(stored.contentType) ? stored.contentType : (request.contentType ?? upload.contentType);
      const refusal = storedVideoRefusal(stored.size, contentType);
      if (refusal) {
        await this.videos.refuse(tx, submission, upload, refusal.message, now);
        return { kind: 'refused', refusal, storageKey: upload.storageKey };
      }

      await this.requireDailyAllowance(tx, request.userId, now);
      startProcessing(submission, upload, { size: stored.size, contentType, fileName: request.fileName }, now);
      await this.videos.record(tx, upload, submission);
      return { kind: 'accepted', submission, upload };
    });
    if (result.kind === 'refused') {
      // The refusal is recorded (committed); the caller still gets the error.
      await this.storage.discard(result.storageKey, 'a refused upload');
      throw result.refusal;
    }

    try {
      await this.queue.enqueue({
        videoId: result.upload.id,
        submissionId: result.submission.id,
        sourceKey: result.upload.storageKey,
        contentType: result.upload.contentType!,
        correlationId: currentCorrelationId(),
      });
    } catch (err) {
      // Nothing will process the video: put the upload back so finalizing again works.
      this.logger.error({ err, videoId: result.upload.id }, 'could not queue a video for processing');
      await this.transactions.run(async (tx) => {
        const submission = await this.repo.lockById(tx, result.submission.id);
        const upload = await this.repo.lockUpload(tx, result.upload.id);
        if (!submission || !upload || upload.status !== 'processing') return;
        stopProcessing(submission, upload, new Date());
        await this.videos.record(tx, upload, submission);
      });
      throw new DomainError(grpcStatus.UNAVAILABLE, messages.queueUnavailable);
    }
    return toSubmissionMessage(result.submission, this.config.RISK_HOLD_THRESHOLD);
  }

  /** The gateway gave up on an upload (too large, cut off): it is refused with the reason, its object removed. */
  async abortVideoUpload(request: submissionsV1.AbortVideoUploadRequest): Promise<submissionsV1.AbortVideoUploadResponse> {
    const reason = request.reason?.trim() || messages.invalidVideo;
    const key = await this.transactions.run(async (tx) => {
      const locked = await this.repo.lockUploadWithSubmission(tx, request.videoId);
      if (!locked) throw notFound(messages.uploadNotFound);
      if (locked.upload.status === 'awaiting-upload') await this.videos.refuse(tx, locked.submission, locked.upload, reason, new Date());
      return locked.upload.storageKey;
    });
    await this.storage.discard(key, 'an aborted upload');
    return {};
  }

  private async ownSubmission(tx: EntityManager, userId: string, submissionId: string): Promise<SubmissionEntity> {
    return requireOwner(await this.repo.lockById(tx, submissionId), userId);
  }

  /** At most DAILY_VIDEO_LIMIT videos processing or ready per UTC day (ADR 0013). */
  private async requireDailyAllowance(tx: EntityManager, userId: string, now: Date): Promise<void> {
    const used = await this.repo.countAcceptedVideosSince(tx, userId, utcDayStart(now));
    if (used >= this.config.DAILY_VIDEO_LIMIT) throw tooMany(messages.dailyLimit(this.config.DAILY_VIDEO_LIMIT));
  }
}
