import { CONFIG, Outbox } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import { toSnapshot } from '../domain/submission.mapper.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/**
 * Tells the platform that a submission's video matches were stored (ADR 0048), in the transaction that
 * stored them: `submission.matches-changed` with the snapshot, whose `hold` rewards reads to hold what the
 * clip earns (ADR 0050). The submission's `updatedAt` moves with it, so the snapshot is newer than any
 * event before it and a consumer that keeps the newest applies it.
 */
@Injectable()
export class MatchesPublishedService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
  ) {}

  async publish(tx: EntityManager, submissionId: string, matchCount: number, now = new Date()): Promise<void> {
    const submission = await this.repo.lockById(tx, submissionId);
    if (!submission) return;
    submission.updatedAt = now;
    await this.repo.save(tx, submission);
    await this.outbox.append(tx, 'submission.matches-changed', {
      submission: toSnapshot(submission, this.config.RISK_HOLD_THRESHOLD),
      matchCount,
    });
  }
}
