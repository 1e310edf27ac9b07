import { status as grpcStatus } from '@grpc/grpc-js';
import type { submissionsV1 } from '@clipit/contracts';
import { conflict, GrpcCallError, invalid, isUuid, notFound, Outbox, uniqueViolation } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { checkSubmission } from '../domain/submission-input.js';
import { newSubmission } from '../domain/submission.factory.js';
import { toSnapshot, toSubmissionMessage } from '../domain/submission.mapper.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { identityCallFailure } from './identity-failure.js';

const LIST_DEFAULT = 500;
const LIST_MAX = 1000;

/** Submitting a post, and reading submissions back (a person's own, one by id, the moderators' list). */
@Injectable()
export class SubmissionsService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityPort,
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
    const capped = Math.min(Math.max(limit && limit > 0 ? limit : LIST_DEFAULT, 1), LIST_MAX);
    return { submissions: (await this.repo.listAll(capped)).map(toSubmissionMessage) };
  }

  async get(id: string): Promise<submissionsV1.Submission> {
    const submission = await this.repo.findById(id);
    if (!submission) throw notFound(messages.submissionNotFound);
    return toSubmissionMessage(submission);
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
