import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { status as grpcStatus } from '@grpc/grpc-js';
import { mediaKeys, type MediaFailedV1, type MediaProcessedV1, type submissionsV1 } from '@clipit/contracts';
import { bareContentType, isVideoContentType, VIDEO_LIMITS } from '@clipit/field-rules';
import { CONFIG, conflict, currentCorrelationId, DomainError, failedPrecondition, forbidden, GrpcCallError, invalid, isUuid, LOGGER, notFound, Outbox, tooLarge, tooMany, uniqueViolation } from '@clipit/service-kit';
import { STORAGE, type StorageDriver } from '@clipit/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import { utcDayStart } from '../domain/daily-limit.js';
import { messages } from '../domain/messages.js';
import { checkRejectReason, nextModerationState, type ModerationCommand } from '../domain/moderation.js';
import { checkSubmission, type SubmissionInput } from '../domain/submission-input.js';
import { toSnapshot, toSubmissionMessage } from '../domain/submission.mapper.js';
import { SubmissionEntity } from '../entities/submission.entity.js';
import { VideoUploadEntity } from '../entities/video-upload.entity.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { IDENTITY_CLIENT, MEDIA_QUEUE } from '../submissions.tokens.js';
import { identityCallFailure } from './identity-failure.js';
import type { IdentityPort, MediaQueuePort } from './ports.js';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The submissions service's commands and queries. Each command runs in one transaction that also
 * writes its events to the outbox; a submission's row is locked while a command changes it.
 */
@Injectable()
export class SubmissionsService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityPort,
    @Inject(MEDIA_QUEUE) private readonly queue: MediaQueuePort,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  // ---------------------------------------------------------------------------------------------
  // Submissions
  // ---------------------------------------------------------------------------------------------

  async create(request: submissionsV1.CreateSubmissionRequest): Promise<submissionsV1.Submission> {
    if (!isUuid(request.userId)) throw invalid('userId must be a user id');
    const input: SubmissionInput = {
      name: request.name,
      url: request.url,
      externalId: request.externalId,
      authorHandle: request.authorHandle,
      walletAddress: request.walletAddress,
      additionalInfo: request.additionalInfo,
      tokenId: request.tokenId,
      streamerId: request.streamerId,
      userWalletAddress: request.userWalletAddress,
    };
    const checked = checkSubmission(input);
    if (checked.tokenId) await this.requireToken(checked.tokenId);
    if (checked.streamerId) await this.requireStreamer(checked.streamerId);

    const now = new Date();
    const submission = Object.assign(new SubmissionEntity(), {
      id: randomUUID(),
      userId: request.userId,
      ...checked,
      verificationCode: null,
      verifiedAt: null,
      status: 'pending',
      addedToFeed: false,
      rejectedReason: null,
      approvedAt: null,
      videoState: 'none',
      hasVideo: false,
      videoId: null,
      videoRejectedReason: null,
      videoFileName: null,
      videoFileSize: null,
      muxAssetId: null,
      muxUploadId: null,
      muxStatus: null,
      muxPlaybackId: null,
      videoUrl: null,
      videoThumbnailUrl: null,
      videoDuration: null,
      videoAspectRatio: null,
      views: 0,
      likes: 0,
      retweets: 0,
      replies: 0,
      quoteCount: 0,
      bookmarkCount: 0,
      publishedAt: null,
      lastMetricsFetch: null,
      rawMetrics: null,
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<SubmissionEntity>);
    try {
      await this.repo.transaction(async (tx) => {
        await this.repo.insert(tx, submission);
        await this.outbox.append(tx, 'submission.created', { submission: toSnapshot(submission) });
      });
    } catch (err) {
      if (uniqueViolation(err) === 'submissions_platform_external_id_key') throw conflict(messages.duplicatePost);
      throw err;
    }
    return toSubmissionMessage(submission);
  }

  async listMine(userId: string): Promise<submissionsV1.ListSubmissionsResponse> {
    return { submissions: (await this.repo.listByUser(userId)).map(toSubmissionMessage) };
  }

  async listAll(limit: number | undefined): Promise<submissionsV1.ListSubmissionsResponse> {
    const capped = Math.min(Math.max(limit && limit > 0 ? limit : 500, 1), 1000);
    return { submissions: (await this.repo.listAll(capped)).map(toSubmissionMessage) };
  }

  async get(id: string): Promise<submissionsV1.Submission> {
    const submission = await this.repo.findById(id);
    if (!submission) throw notFound(messages.submissionNotFound);
    return toSubmissionMessage(submission);
  }

  // ---------------------------------------------------------------------------------------------
  // Video uploads
  // ---------------------------------------------------------------------------------------------

  async createVideoUpload(request: submissionsV1.CreateVideoUploadRequest): Promise<submissionsV1.VideoUpload> {
    if (request.contentType !== undefined && request.contentType !== '' && !isVideoContentType(request.contentType)) {
      throw invalid(messages.invalidFileType);
    }
    const videoId = randomUUID();
    const token = randomBytes(32).toString('base64url');
    const storageKey = mediaKeys.upload(videoId);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.UPLOAD_URL_TTL_SECONDS * 1000);

    await this.repo.transaction(async (tx) => {
      const submission = await this.ownSubmission(tx, request.userId, request.submissionId);
      if (submission.status === 'rejected') throw failedPrecondition(messages.submissionRejected);
      if (submission.videoState === 'ready') throw failedPrecondition(messages.alreadyHasVideo);
      if (submission.videoState === 'processing') throw failedPrecondition(messages.videoInProgress);
      await this.requireDailyAllowance(tx, request.userId, now);

      const upload = Object.assign(new VideoUploadEntity(), {
        id: videoId,
        submissionId: submission.id,
        userId: request.userId,
        storageKey,
        tokenHash: hashToken(token),
        status: 'awaiting-upload',
        contentType: request.contentType || null,
        fileName: request.fileName || null,
        fileSize: null,
        reason: null,
        expiresAt,
        finalizedAt: null,
        completedAt: null,
        createdAt: now,
      } satisfies VideoUploadEntity);
      await this.repo.insertUpload(tx, upload);
      // A newer upload replaces one that was never finished (its object is swept when it expires).
      Object.assign(submission, {
        videoState: 'awaiting-upload',
        videoId,
        muxUploadId: videoId,
        muxStatus: 'waiting',
        videoRejectedReason: null,
        updatedAt: now,
      } satisfies Partial<SubmissionEntity>);
      await this.repo.save(tx, submission);
    });

    const presignedUrl = (await this.storage.presignedPutUrl?.(storageKey, this.config.UPLOAD_URL_TTL_SECONDS)) ?? '';
    return {
      videoId,
      submissionId: request.submissionId,
      storageKey,
      presignedUrl,
      // The secret goes only to a gateway upload URL: a presigned URL carries its own signature.
      uploadToken: presignedUrl === '' ? token : '',
      expiresAt: expiresAt.toISOString(),
      maxBytes: VIDEO_LIMITS.maxBytes,
    };
  }

  async authorizeVideoUpload(request: submissionsV1.AuthorizeVideoUploadRequest): Promise<submissionsV1.AuthorizedUpload> {
    const upload = await this.repo.findUpload(request.videoId);
    const valid =
      upload !== undefined &&
      upload.status === 'awaiting-upload' &&
      upload.expiresAt.getTime() > Date.now() &&
      request.uploadToken !== '' &&
      upload.tokenHash === hashToken(request.uploadToken);
    if (!valid) throw notFound(messages.uploadNotFound);
    return { videoId: upload.id, storageKey: upload.storageKey, maxBytes: VIDEO_LIMITS.maxBytes };
  }

  /**
   * The bytes are in storage. Checks what can be checked without reading them (present, not empty,
   * not over 150 MB, a video type), marks the video as processing and queues it. A refused file is
   * removed and its reason kept on the submission.
   */
  async finalizeVideoUpload(request: submissionsV1.FinalizeVideoUploadRequest): Promise<submissionsV1.Submission> {
    const now = new Date();
    const result = await this.repo.transaction(async (tx) => {
      const submission = await this.ownSubmission(tx, request.userId, request.submissionId);
      const upload = await this.repo.lockUpload(tx, request.videoId);
      if (!upload || upload.userId !== request.userId) throw notFound(messages.uploadNotFound);
      if (upload.submissionId !== submission.id) throw invalid(messages.uploadWrongSubmission);
      // Expired unused, as before the sweeper got to it: gone, not "already finalized".
      if (upload.status === 'expired') throw notFound(messages.uploadNotFound);
      if (upload.status !== 'awaiting-upload') throw failedPrecondition(messages.uploadNotPending);
      if (upload.expiresAt.getTime() <= now.getTime()) throw notFound(messages.uploadNotFound);
      if (submission.status === 'rejected') throw failedPrecondition(messages.submissionRejected);

      const stored = await this.storage.stat(upload.storageKey);
      if (!stored) throw invalid(messages.uploadNotReceived);
      const contentType = isVideoContentType(stored.contentType) ? stored.contentType : (request.contentType ?? upload.contentType);
      let refusal: DomainError | undefined;
      if (stored.size > VIDEO_LIMITS.maxBytes) refusal = tooLarge(messages.fileTooLarge);
      else if (!isVideoContentType(contentType)) refusal = invalid(messages.invalidFileType);
      else if (stored.size === 0) refusal = invalid(messages.invalidVideo);
      if (refusal) {
        await this.refuseUpload(tx, submission, upload, refusal.message, now);
        return { kind: 'refused' as const, refusal, storageKey: upload.storageKey };
      }

      await this.requireDailyAllowance(tx, request.userId, now);
      Object.assign(upload, {
        status: 'processing',
        contentType: bareContentType(contentType),
        fileName: request.fileName || upload.fileName,
        fileSize: stored.size,
        finalizedAt: now,
      } satisfies Partial<VideoUploadEntity>);
      await this.repo.saveUpload(tx, upload);
      Object.assign(submission, {
        videoState: 'processing',
        videoId: upload.id,
        videoFileName: upload.fileName,
        videoFileSize: stored.size,
        muxStatus: 'processing',
        videoRejectedReason: null,
        updatedAt: now,
      } satisfies Partial<SubmissionEntity>);
      await this.repo.save(tx, submission);
      await this.outbox.append(tx, 'submission.video-changed', { submission: toSnapshot(submission), reason: null });
      return { kind: 'accepted' as const, submission, upload };
    });
    if (result.kind === 'refused') {
      // The refusal is recorded (committed); the caller still gets the error.
      await this.storage.delete(result.storageKey).catch((err: unknown) => this.logger.warn({ err }, 'could not remove a refused upload'));
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
      await this.repo.transaction(async (tx) => {
        const submission = await this.repo.lockById(tx, result.submission.id);
        const upload = await this.repo.lockUpload(tx, result.upload.id);
        if (!submission || !upload || upload.status !== 'processing') return;
        Object.assign(upload, { status: 'awaiting-upload', finalizedAt: null } satisfies Partial<VideoUploadEntity>);
        await this.repo.saveUpload(tx, upload);
        Object.assign(submission, { videoState: 'awaiting-upload', muxStatus: 'waiting', updatedAt: new Date() } satisfies Partial<SubmissionEntity>);
        await this.repo.save(tx, submission);
        await this.outbox.append(tx, 'submission.video-changed', { submission: toSnapshot(submission), reason: null });
      });
      throw new DomainError(grpcStatus.UNAVAILABLE, messages.queueUnavailable);
    }
    return toSubmissionMessage(result.submission);
  }

  /** The gateway gave up on an upload (too large, cut off): it is refused with the reason, its object removed. */
  async abortVideoUpload(request: submissionsV1.AbortVideoUploadRequest): Promise<submissionsV1.AbortVideoUploadResponse> {
    const reason = request.reason?.trim() || messages.invalidVideo;
    const key = await this.repo.transaction(async (tx) => {
      const locked = await this.repo.lockUploadWithSubmission(tx, request.videoId);
      if (!locked) throw notFound(messages.uploadNotFound);
      if (locked.upload.status === 'awaiting-upload') await this.refuseUpload(tx, locked.submission, locked.upload, reason, new Date());
      return locked.upload.storageKey;
    });
    if (key) await this.storage.delete(key).catch((err: unknown) => this.logger.warn({ err }, 'could not remove an aborted upload'));
    return {};
  }

  // ---------------------------------------------------------------------------------------------
  // The media worker's verdicts (events, applied once through the inbox)
  // ---------------------------------------------------------------------------------------------

  async onMediaProcessed(data: MediaProcessedV1, tx: EntityManager): Promise<void> {
    const locked = await this.repo.lockUploadWithSubmission(tx, data.videoId);
    if (!locked || locked.upload.status !== 'processing') {
      this.logger.warn({ videoId: data.videoId, status: locked?.upload.status }, 'media.processed for an upload that is not processing: ignored');
      return;
    }
    const { submission, upload } = locked;
    const now = new Date();
    Object.assign(upload, { status: 'ready', completedAt: now } satisfies Partial<VideoUploadEntity>);
    await this.repo.saveUpload(tx, upload);
    if (submission.videoId !== upload.id) return; // superseded by a newer upload
    const base = this.config.MEDIA_PUBLIC_BASE_URL;
    Object.assign(submission, {
      videoState: 'ready',
      hasVideo: true,
      videoUrl: `${base}/${data.video.key}`,
      videoThumbnailUrl: `${base}/${data.poster.key}`,
      videoDuration: data.durationSeconds,
      videoAspectRatio: data.aspectRatio,
      muxPlaybackId: data.playbackId,
      muxAssetId: data.videoId,
      muxStatus: 'ready',
      videoRejectedReason: null,
      updatedAt: now,
    } satisfies Partial<SubmissionEntity>);
    await this.repo.save(tx, submission);
    await this.outbox.append(tx, 'submission.video-changed', { submission: toSnapshot(submission), reason: null });
  }

  async onMediaFailed(data: MediaFailedV1, tx: EntityManager): Promise<void> {
    const locked = await this.repo.lockUploadWithSubmission(tx, data.videoId);
    if (!locked || locked.upload.status !== 'processing') {
      this.logger.warn({ videoId: data.videoId, status: locked?.upload.status }, 'media.failed for an upload that is not processing: ignored');
      return;
    }
    await this.refuseUpload(tx, locked.submission, locked.upload, data.reason, new Date());
  }

  // ---------------------------------------------------------------------------------------------
  // Moderation (spec 02 §4)
  // ---------------------------------------------------------------------------------------------

  async moderate(submissionId: string, command: ModerationCommand, reason?: string): Promise<submissionsV1.Submission> {
    const rejectedReason = command === 'reject' ? checkRejectReason(reason) : null;
    return this.repo.transaction(async (tx) => {
      const submission = await this.repo.lockById(tx, submissionId);
      if (!submission) throw notFound(messages.submissionNotFound);
      const next = nextModerationState(submission, command);
      const now = new Date();
      const wasApproved = submission.status === 'approved';
      Object.assign(submission, { ...next, updatedAt: now });
      if (next.status === 'approved' && !wasApproved) submission.approvedAt = now;
      if (command === 'reject') submission.rejectedReason = rejectedReason;
      await this.repo.save(tx, submission);
      const snapshot = toSnapshot(submission);
      switch (command) {
        case 'approve':
        case 'approve-and-add-to-feed':
          await this.outbox.append(tx, 'submission.approved', { submission: snapshot });
          break;
        case 'reject':
          await this.outbox.append(tx, 'submission.rejected', { submission: snapshot });
          break;
        case 'add-to-feed':
        case 'remove-from-feed':
          await this.outbox.append(tx, 'submission.feed-changed', { submission: snapshot, addedToFeed: next.addedToFeed });
          break;
      }
      return toSubmissionMessage(submission);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Housekeeping
  // ---------------------------------------------------------------------------------------------

  /** Uploads whose URL expired unused: forgotten, their objects (a partial PUT, say) removed. Answers how many. */
  async sweepExpiredUploads(now = new Date(), batch = 100): Promise<number> {
    const ids = await this.repo.transaction((tx) => this.repo.findExpiredUploadIds(tx, now, batch));
    const keys: string[] = [];
    // One short transaction per upload, its rows locked in the usual order and its state checked again
    // (a finalize, or another replica's sweep, may have got there first).
    for (const id of ids) {
      const key = await this.repo.transaction(async (tx) => {
        const locked = await this.repo.lockUploadWithSubmission(tx, id);
        if (!locked || locked.upload.status !== 'awaiting-upload' || locked.upload.expiresAt.getTime() >= now.getTime()) return undefined;
        const { submission, upload } = locked;
        upload.status = 'expired';
        await this.repo.saveUpload(tx, upload);
        if (submission.videoId === upload.id && submission.videoState === 'awaiting-upload') {
          Object.assign(submission, { videoState: 'none', videoId: null, muxUploadId: null, muxStatus: null, updatedAt: now } satisfies Partial<SubmissionEntity>);
          await this.repo.save(tx, submission);
        }
        return upload.storageKey;
      });
      if (key) keys.push(key);
    }
    for (const key of keys) await this.storage.delete(key).catch((err: unknown) => this.logger.warn({ err, key }, 'could not remove an expired upload'));
    return keys.length;
  }

  // ---------------------------------------------------------------------------------------------

  private async ownSubmission(tx: EntityManager, userId: string, submissionId: string): Promise<SubmissionEntity> {
    const submission = await this.repo.lockById(tx, submissionId);
    if (!submission) throw notFound(messages.submissionNotFound);
    if (submission.userId !== userId) throw forbidden(messages.notYourSubmission);
    return submission;
  }

  private async requireDailyAllowance(tx: EntityManager, userId: string, now: Date): Promise<void> {
    const used = await this.repo.countAcceptedVideosSince(tx, userId, utcDayStart(now));
    if (used >= this.config.DAILY_VIDEO_LIMIT) throw tooMany(messages.dailyLimit(this.config.DAILY_VIDEO_LIMIT));
  }

  /** The video is refused: the upload records why, the submission is left without video, with the reason. */
  private async refuseUpload(tx: EntityManager, submission: SubmissionEntity, upload: VideoUploadEntity, reason: string, now: Date): Promise<void> {
    Object.assign(upload, { status: 'rejected', reason, completedAt: now } satisfies Partial<VideoUploadEntity>);
    await this.repo.saveUpload(tx, upload);
    if (submission.videoId !== upload.id) return;
    Object.assign(submission, {
      videoState: 'rejected',
      hasVideo: false,
      videoRejectedReason: reason,
      muxStatus: 'errored',
      updatedAt: now,
    } satisfies Partial<SubmissionEntity>);
    await this.repo.save(tx, submission);
    await this.outbox.append(tx, 'submission.video-changed', { submission: toSnapshot(submission), reason });
  }

  private async requireToken(tokenId: string): Promise<void> {
    try {
      await this.identity.getToken({ id: tokenId });
    } catch (err) {
      if (err instanceof GrpcCallError && err.code === grpcStatus.NOT_FOUND) throw notFound(messages.tokenNotFound);
      throw identityCallFailure(err);
    }
  }

  private async requireStreamer(streamerId: string): Promise<void> {
    try {
      const user = await this.identity.getUser({ id: streamerId });
      if (user.role !== 'streamer') throw notFound(messages.streamerNotFound);
    } catch (err) {
      if (err instanceof GrpcCallError && err.code === grpcStatus.NOT_FOUND) throw notFound(messages.streamerNotFound);
      throw identityCallFailure(err);
    }
  }
}
