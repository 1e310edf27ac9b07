import type { submissionsV1 } from '@clipit/contracts';
import { notFound, Outbox, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { isMeasurable } from '../domain/metrics-schedule.js';
import { checkRejectReason, nextModerationState, type ModerationCommand } from '../domain/moderation.js';
import { scheduleFirstRead } from '../domain/post-metrics.js';
import { toSnapshot, toSubmissionMessage } from '../domain/submission.mapper.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/** Moderation commands (spec 02 §4, from the admin service): each a transition under the row's lock, with its event. */
@Injectable()
export class ModerationService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  async moderate(submissionId: string, command: ModerationCommand, reason?: string): Promise<submissionsV1.Submission> {
    const rejectedReason = command === 'reject' ? checkRejectReason(reason) : null;
    return this.transactions.run(async (tx) => {
      const submission = await this.repo.lockById(tx, submissionId);
      if (!submission) throw notFound(messages.submissionNotFound);
      const next = nextModerationState(submission, command);
      const now = new Date();
      const wasApproved = submission.status === 'approved';
      Object.assign(submission, { ...next, updatedAt: now });
      if (next.status === 'approved' && !wasApproved) {
        submission.approvedAt = now;
        // Its metrics are read at the metrics scheduler's next round (ADR 0029).
        scheduleFirstRead(submission, now, isMeasurable(submission));
      }
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
}
