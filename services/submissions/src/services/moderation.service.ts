import type { submissionsV1 } from '@clipit/contracts';
import { CONFIG, notFound, Outbox, TransactionRunner } from '@clipit/service-kit';
import type { EntityManager } from 'typeorm';
import { Inject, Injectable } from '@nestjs/common';
import type { SubmissionsConfig } from '../config.js';
import { messages } from '../domain/messages.js';
import { isMeasurable } from '../domain/metrics-schedule.js';
import { checkRejectReason, nextModerationState, overturnRejection, type ModerationCommand } from '../domain/moderation.js';
import { scheduleFirstRead } from '../domain/post-metrics.js';
import { toSnapshot, toSubmissionMessage } from '../domain/submission.mapper.js';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/** Moderation commands (spec 02 §4, from the admin service): each a transition under the row's lock, with its event. */
@Injectable()
export class ModerationService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
  ) {}

  async moderate(submissionId: string, command: ModerationCommand, reason?: string): Promise<submissionsV1.Submission> {
    const rejectedReason = command === 'reject' ? checkRejectReason(reason) : null;
    return this.transactions.run(async (tx) => {
      const submission = await this.repo.lockById(tx, submissionId);
      if (!submission) throw notFound(messages.submissionNotFound);
      const next = nextModerationState(submission, command);
      const now = new Date();
      this.transition(submission, next, now);
      if (command === 'reject') submission.rejectedReason = rejectedReason;
      await this.repo.save(tx, submission);
      const snapshot = toSnapshot(submission, this.config.RISK_HOLD_THRESHOLD);
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
      return toSubmissionMessage(submission, this.config.RISK_HOLD_THRESHOLD);
    });
  }

  /**
   * An overturned appeal approves the rejected clip (ADR 0051), in the caller's transaction, through the
   * same transition and event as a moderator's approval: rewards earns it, the feed and the metrics
   * schedule follow as for any approved clip. The rejection's reason stays on the appeal, not the clip.
   */
  async approveOnAppeal(tx: EntityManager, submissionId: string, now: Date): Promise<SubmissionEntity> {
    const submission = await this.repo.lockById(tx, submissionId);
    if (!submission) throw notFound(messages.submissionNotFound);
    this.transition(submission, overturnRejection(submission), now);
    submission.rejectedReason = null;
    await this.repo.save(tx, submission);
    await this.outbox.append(tx, 'submission.approved', { submission: toSnapshot(submission, this.config.RISK_HOLD_THRESHOLD) });
    return submission;
  }

  private transition(submission: SubmissionEntity, next: { status: SubmissionEntity['status']; addedToFeed: boolean }, now: Date): void {
    const wasApproved = submission.status === 'approved';
    Object.assign(submission, { ...next, updatedAt: now });
    if (next.status === 'approved' && !wasApproved) {
      submission.approvedAt = now;
      // Its metrics are read at the metrics scheduler's next round (ADR 0029).
      scheduleFirstRead(submission, now, isMeasurable(submission));
    }
  }
}
