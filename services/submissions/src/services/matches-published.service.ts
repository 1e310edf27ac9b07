import { CONFIG, Outbox } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import type { VideoMatch } from '../domain/video-matches.js';
import { toSnapshot } from '../domain/submission.mapper.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/**
 * Keeps a video's matches on its submission (ADR 0048) and tells the platform, in one transaction:
 * `submission.matches-changed` with the snapshot, whose `hold` rewards reads to hold what the clip earns
 * (ADR 0050). The submission's `updatedAt` moves with it, so the snapshot is newer than any event before it
 * and a consumer that keeps the newest applies it. One locked read and one write of the row.
 */
@Injectable()
export class MatchesPublishedService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
  ) {}

  /**
   * Stores `matches` as the submission's when `videoId` is still its video (a newer upload has its own), and
   * appends the event; false when the submission or its video moved on, and then nothing is written.
   */
  async store(
    tx: EntityManager,
    submissionId: string,
    videoId: string,
    matches: readonly VideoMatch[],
    now = new Date(),
  ): Promise<boolean> {
    const submission = await this.repo.lockById(tx, submissionId);
    if (!submission || submission.videoId !== videoId) return false;
    submission.videoMatches = [...matches];
    submission.updatedAt = now;
    await this.repo.save(tx, submission);
    await this.outbox.append(tx, 'submission.matches-changed', {
      submission: toSnapshot(submission, this.config.RISK_HOLD_THRESHOLD),
      matchCount: matches.length,
    });
    return true;
  }
}
