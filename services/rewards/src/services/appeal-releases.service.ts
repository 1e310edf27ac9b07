import type { AppealDecidedV1 } from '@clipit/contracts';
import { Outbox } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { normalizeAmount } from '../domain/amount.js';
import { releasesHeldEarning } from '../domain/earning-hold.js';
import { EarningRepository } from '../repositories/earning.repository.js';

/**
 * An appeal of a held earning that an admin overturned (ADR 0051, from submissions' `appeal.decided`):
 * the earning is released with the admin's words and name, as their own release would (pending again,
 * paid by the next payout run; `rewards.earning-released` in the same transaction). An earning no longer
 * held (released or voided meanwhile, paid) is left alone; the inbox applies each event once.
 */
@Injectable()
export class AppealReleasesService {
  constructor(
    private readonly earnings: EarningRepository,
    private readonly outbox: Outbox,
  ) {}

  async onAppealDecided(data: AppealDecidedV1, tx: EntityManager): Promise<void> {
    const release = releasesHeldEarning(data.appeal);
    if (!release) return;
    const earning = await this.earnings.lock(tx, release.earningId);
    if (!earning || earning.status !== 'held') return;
    const decision = { decision: 'released' as const, by: release.by, reason: release.reason, at: release.at };
    if (!(await this.earnings.decide(tx, earning.id, 'pending', decision))) return;
    await this.outbox.append(tx, 'rewards.earning-released', {
      earningId: earning.id,
      userId: earning.userId,
      submissionId: earning.submissionId,
      amount: normalizeAmount(earning.amount),
      by: release.by,
      reason: release.reason,
      at: release.at.toISOString(),
    });
  }
}
