import type { RewardsEarningHeldV1, RewardsEarningReleasedV1, submissionsV1 } from '@clipit/contracts';
import { APPEAL_MESSAGES } from '@clipit/field-rules';
import { conflict, decodeCursor, keysetPage, Outbox, pageSize, TransactionRunner, uniqueViolation } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  appealText,
  applyEarningHold,
  approvesClip,
  checkDecision,
  decide,
  decodeAdminCursor,
  encodeAdminCursor,
  kindToAppeal,
  newAppeal,
  rankOf,
  toAppealMessage,
  toAppealSnapshot,
} from '../domain/appeal.js';
import type { AppealEntity } from '../entities/appeal.entity.js';
import type { EarningHoldState } from '../entities/submission.entity.js';
import { AppealRepository } from '../repositories/appeal.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { ModerationService } from './moderation.service.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;

/**
 * Appeals (ADR 0051): a clipper appeals their clip's rejection or held earning once per kind; an admin
 * upholds or overturns it with a reason. Each write is one transaction with its event; an overturned
 * rejection approves the clip through moderation's own transition, an overturned hold is released by
 * rewards from `appeal.decided`. The hold state appealed is rewards' own, mirrored from its events.
 */
@Injectable()
export class AppealsService {
  constructor(
    private readonly appeals: AppealRepository,
    private readonly submissions: SubmissionRepository,
    private readonly moderation: ModerationService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async file(request: submissionsV1.FileAppealRequest, now = new Date()): Promise<submissionsV1.Appeal> {
    try {
      return await this.transactions.run(async (tx) => {
        // The submission's lock orders this filing after a hold event or a decision on the same clip.
        const submission = await this.submissions.lockById(tx, request.submissionId);
        const kind = kindToAppeal(submission, request.userId, submission ? await this.appeals.kindsOf(tx, submission.id) : []);
        const appeal = newAppeal(randomUUID(), submission!, kind, appealText(request.text), now);
        await this.appeals.insert(tx, appeal);
        await this.outbox.append(tx, 'appeal.filed', { appeal: toAppealSnapshot(appeal) });
        return toAppealMessage(appeal, submission);
      });
    } catch (err) {
      // Only a filing that raced another of the same clip and kind meets the constraint.
      if (uniqueViolation(err)) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
      throw err;
    }
  }

  async listMine(request: submissionsV1.ListMyAppealsRequest): Promise<submissionsV1.AppealPage> {
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const rows = await this.appeals.listByUser(request.userId, size + 1, request.cursor ? decodeCursor(request.cursor) : undefined);
    const { page, nextCursor } = keysetPage(rows, size);
    return { appeals: await this.withClips(page), ...(nextCursor ? { nextCursor } : {}) };
  }

  async listAll(request: submissionsV1.ListAppealsRequest): Promise<submissionsV1.AppealPage> {
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const rows = await this.appeals.listForAdmin(size + 1, request.cursor ? decodeAdminCursor(request.cursor) : undefined);
    const page = rows.slice(0, size);
    const last = page.at(-1);
    const nextCursor =
      rows.length > size && last ? encodeAdminCursor({ rank: rankOf(last), createdAt: last.createdAt, id: last.id }) : null;
    return { appeals: await this.withClips(page), ...(nextCursor ? { nextCursor } : {}) };
  }

  async decide(request: submissionsV1.DecideAppealRequest, now = new Date()): Promise<submissionsV1.Appeal> {
    const decision = checkDecision(request.outcome, request.reason, request.decidedBy);
    return this.transactions.run(async (tx) => {
      const decided = decide(await this.appeals.lockById(tx, request.appealId), decision, now);
      const clip = approvesClip(decided)
        ? await this.moderation.approveOnAppeal(tx, decided.submissionId, now)
        : await this.submissions.findById(decided.submissionId, tx);
      await this.appeals.save(tx, decided);
      await this.outbox.append(tx, 'appeal.decided', { appeal: toAppealSnapshot(decided) });
      return toAppealMessage(decided, clip);
    });
  }

  /** rewards held the clip's earning (ADR 0050): mirrored so its owner may appeal it. */
  onEarningHeld(data: RewardsEarningHeldV1, tx: EntityManager): Promise<void> {
    return this.mirror(tx, data.submissionId, { state: 'held', earningId: data.earningId, reasons: data.reasons, at: new Date(data.at) });
  }

  onEarningDecided(state: Exclude<EarningHoldState, 'held'>, data: RewardsEarningReleasedV1, tx: EntityManager): Promise<void> {
    return this.mirror(tx, data.submissionId, { state, earningId: data.earningId, at: new Date(data.at) });
  }

  private async mirror(tx: EntityManager, submissionId: string, event: Parameters<typeof applyEarningHold>[1]): Promise<void> {
    const submission = await this.submissions.lockById(tx, submissionId);
    if (!submission || !applyEarningHold(submission, event)) return;
    await this.submissions.save(tx, submission);
  }

  private async withClips(page: readonly AppealEntity[]): Promise<submissionsV1.Appeal[]> {
    const clips = await this.appeals.clipsOf(page.map((a) => a.submissionId));
    return page.map((a) => toAppealMessage(a, clips.get(a.submissionId)));
  }
}
