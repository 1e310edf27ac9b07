import { status as grpcStatus } from '@grpc/grpc-js';
import type { submissionsV1 } from '@clipit/contracts';
import {
  conflict,
  decodeCursor,
  GrpcCallError,
  invalid,
  isUuid,
  keysetPage,
  notFound,
  Outbox,
  pageSize,
  uniqueViolation,
  TransactionRunner,
  CONFIG,
} from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { SubmissionsConfig } from '../config.js';
import { messages } from '../domain/messages.js';
import { decodeQueueCursor, encodeQueueCursor, queueFilter, queueRank } from '../domain/moderation-queue.js';
import { checkSubmission } from '../domain/submission-input.js';
import { newSubmission } from '../domain/submission.factory.js';
import { toSnapshot, toSubmissionMessage } from '../domain/submission.mapper.js';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { identityCallFailure } from './identity-failure.js';

/** A list's page size: default and most (the admin list's, ADR 0020; the owner's when asked for a page). */
const LIST_DEFAULT = 50;
const LIST_MAX = 200;
/** The admin header counts submissions created in this window (spec 02 §9). */
const RECENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Submitting a post, and reading submissions back (a person's own, one by id, the moderators' list). */
@Injectable()
export class SubmissionsService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityPort,
    private readonly transactions: TransactionRunner,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
  ) {}

  /** Every rule is checked (a tagged token or streamer must exist at identity) before the one write and its event. */
  async create(request: submissionsV1.CreateSubmissionRequest): Promise<submissionsV1.Submission> {
    if (!isUuid(request.userId)) throw invalid('userId must be a user id');
    const checked = checkSubmission({
      name: request.name,
      url: request.url,
      externalId: request.externalId,
      authorHandle: request.authorHandle,
      walletAddress: request.walletAddress,
      additionalInfo: request.additionalInfo,
      tokenId: request.tokenId,
      streamerId: request.streamerId,
      userWalletAddress: request.userWalletAddress,
    });
    if (checked.tokenId) await this.requireToken(checked.tokenId);
    if (checked.streamerId) await this.requireStreamer(checked.streamerId);

    const submission = newSubmission(request.userId, checked, new Date());
    try {
      await this.transactions.run(async (tx) => {
        await this.repo.insert(tx, submission);
        await this.outbox.append(tx, 'submission.created', { submission: toSnapshot(submission, this.config.RISK_HOLD_THRESHOLD) });
      });
    } catch (err) {
      if (uniqueViolation(err) === 'submissions_platform_external_id_key') throw conflict(messages.duplicatePost);
      throw err;
    }
    return this.message(submission);
  }

  /**
   * The user's own submissions, newest first: all of them (the site's list), or one keyset page on
   * (created_at, id) when a limit or a cursor is given (the versioned read API's).
   */
  async listMine(request: submissionsV1.ListMySubmissionsRequest): Promise<submissionsV1.ListSubmissionsResponse> {
    if (request.limit === undefined && !request.cursor) {
      return { submissions: (await this.repo.listByUser(request.userId)).map((s) => this.message(s)) };
    }
    const size = pageSize(request.limit, LIST_DEFAULT, LIST_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const { page, nextCursor } = keysetPage(await this.repo.listByUser(request.userId, { limit: size + 1, before }), size);
    return { submissions: page.map((s) => this.message(s)), ...(nextCursor ? { nextCursor } : {}) };
  }

  /**
   * One page of the moderation queue with the admin header's figures: the submissions the filter picks
   * (status, platform, flags; domain/moderation-queue.ts), pending ones first when no status is picked,
   * then newest first.
   */
  async listAll(
    request: Omit<submissionsV1.ListSubmissionsRequest, 'flags'> & { flags?: readonly string[] },
    now = new Date(),
  ): Promise<submissionsV1.ListSubmissionsResponse> {
    const size = pageSize(request.limit, LIST_DEFAULT, LIST_MAX);
    const filter = queueFilter(request);
    const after = request.cursor ? decodeQueueCursor(request.cursor) : undefined;
    const [rows, counts] = await Promise.all([
      this.repo.listQueue(filter, this.config.RISK_HOLD_THRESHOLD, size + 1, after),
      this.repo.counts(new Date(now.getTime() - RECENT_WINDOW_MS)),
    ]);
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      submissions: page.map((s) => this.message(s)),
      ...(rows.length > size && last
        ? { nextCursor: encodeQueueCursor({ rank: queueRank(filter, last), createdAt: last.createdAt, id: last.id }) }
        : {}),
      total: counts.total,
      createdPastWeek: counts.createdSince,
    };
  }

  async get(id: string): Promise<submissionsV1.Submission> {
    const submission = await this.repo.findById(id);
    if (!submission) throw notFound(messages.submissionNotFound);
    return this.message(submission);
  }

  private message(submission: SubmissionEntity): submissionsV1.Submission {
    return toSubmissionMessage(submission, this.config.RISK_HOLD_THRESHOLD);
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
