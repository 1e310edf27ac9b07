import { randomUUID } from 'node:crypto';
import type { SocialFollowedV1, SubmissionSnapshot, UserSnapshot } from '@clipit/contracts';
import { Outbox } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { clipEarning, multiplierAtApproval } from '../domain/earning.js';
import { holdFor } from '../domain/earning-hold.js';
import { EarningRepository } from '../repositories/earning.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';
import { StandingService } from './standing.service.js';
import { StreamerMultiplierService } from './streamer-multiplier.service.js';

/**
 * What rewards does with other services' events, each applied once in the transaction of its inbox row:
 * people from identity (wallets, admin-set multipliers), follower counts from social (each may change a
 * streamer's applied multiplier, then published), and submissions,
 * whose every change recomputes the clipper's standing and whose approval makes one earning (ADR 0025),
 * held while the owner flags the clip (the snapshot's `hold`, ADR 0050).
 */
@Injectable()
export class ProjectionsService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly submissions: SubmissionRepository,
    private readonly earnings: EarningRepository,
    private readonly tables: TiersRepository,
    private readonly standing: StandingService,
    private readonly multipliers: StreamerMultiplierService,
    private readonly outbox: Outbox,
  ) {}

  /** The person; a streamer whose applied multiplier this changes (first heard of, admin-set) is published. */
  async onUser(data: { user: UserSnapshot }, tx: EntityManager, now = new Date()): Promise<void> {
    await this.people.upsertUser(tx, data.user);
    // Only a streamer has a multiplier to tell: a clipper's user event locks and reads nothing more.
    if (data.user.role === 'streamer') await this.multipliers.reconcile(tx, data.user.id, now);
  }

  /** The follower count; a streamer crossing a multiplier step is published. */
  async onFollowChange(data: SocialFollowedV1, tx: EntityManager, now = new Date()): Promise<void> {
    await this.people.setFollowerCount(tx, data.userId, data.followerCount, data.at);
    await this.multipliers.reconcile(tx, data.userId, now);
  }

  async onSubmission(data: { submission: SubmissionSnapshot }, tx: EntityManager, now = new Date()): Promise<void> {
    const s = data.submission;
    const { steps, tiers } = await this.tables.current();
    // The tagged streamer's multiplier as it stands at approval: the clip keeps it, for its points and its earning.
    let captured: number | undefined;
    const atApproval = async () =>
      (captured ??= multiplierAtApproval(s.streamerId, s.streamerId ? await this.people.find(tx, s.streamerId) : undefined, steps));
    const change = await this.submissions.upsert(tx, s, atApproval);
    if (!change.applied) return;
    const standing = await this.standing.recompute(tx, s.userId, now);
    if (!change.newlyApproved) {
      if (s.status === 'approved' && s.hold) await this.holdLater(tx, s, now);
      return;
    }
    // Approved while flagged: the earning is held from the start (ADR 0050).
    const hold = holdFor(undefined, s.hold);
    const earning = {
      id: randomUUID(),
      userId: s.userId,
      submissionId: s.id,
      ...clipEarning(tiers, standing.currentTier, await atApproval()),
      createdAt: now,
      ...(hold ? { hold } : {}),
    };
    if (await this.earnings.add(tx, earning)) {
      await this.outbox.append(tx, 'rewards.earning-created', {
        earningId: earning.id,
        userId: earning.userId,
        submissionId: earning.submissionId,
        amount: earning.amount,
        at: now.toISOString(),
      });
      if (hold) await this.published(tx, earning, hold.reasons, now);
    }
  }

  /**
   * A later snapshot flags an approved clip: its earning is held if it is pending and in no payout yet, and
   * an admin has not already decided on these causes (holdFor). A snapshot flagging it again changes nothing.
   */
  private async holdLater(tx: EntityManager, s: SubmissionSnapshot, now: Date): Promise<void> {
    const earning = await this.earnings.lockBySubmission(tx, s.id);
    if (!earning) return;
    const hold = holdFor(earning, s.hold);
    if (hold && (await this.earnings.hold(tx, earning.id, hold, now))) await this.published(tx, earning, hold.reasons, now);
  }

  private async published(
    tx: EntityManager,
    e: { id: string; userId: string; submissionId: string; amount: string },
    reasons: string[],
    now: Date,
  ): Promise<void> {
    await this.outbox.append(tx, 'rewards.earning-held', {
      earningId: e.id,
      userId: e.userId,
      submissionId: e.submissionId,
      amount: e.amount,
      reasons,
      at: now.toISOString(),
    });
  }
}
