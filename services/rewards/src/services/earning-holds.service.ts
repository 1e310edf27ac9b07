import type { rewardsV1 } from '@clipit/contracts';
import { checkHoldDecisionReason } from '@clipit/field-rules';
import { failedPrecondition, invalid, notFound, Outbox, TransactionRunner, uuidOrUndefined } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { normalizeAmount } from '../domain/amount.js';
import { statusAfter, type HoldDecision } from '../domain/earning-hold.js';
import { messages } from '../domain/messages.js';
import { EarningRepository, type EarningRow } from '../repositories/earning.repository.js';
import { StandingRepository } from '../repositories/standing.repository.js';

/** A decision as it was made, beside the earning it changed: the controller tells the clipper's dashboard. */
export interface DecidedHold {
  hold: rewardsV1.EarningHold;
  userId: string;
}

/**
 * An admin's decisions on held earnings (ADR 0050): release (pending again, paid by the next payout run)
 * or void (never paid), each with a reason, in one transaction with its event; and the holds of a page of
 * submissions for the admin list. Only a held earning can be decided.
 */
@Injectable()
export class EarningHoldsService {
  constructor(
    private readonly earnings: EarningRepository,
    private readonly standings: StandingRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  release(request: rewardsV1.ReleaseEarningRequest, now = new Date()): Promise<DecidedHold> {
    return this.decide(request, 'released', now);
  }

  void(request: rewardsV1.VoidEarningRequest, now = new Date()): Promise<DecidedHold> {
    return this.decide(request, 'voided', now);
  }

  async holdsOf(request: rewardsV1.ListHoldsRequest): Promise<rewardsV1.EarningHolds> {
    const ids = request.submissionIds.map((id) => uuidOrUndefined(id)).filter((id): id is string => id !== undefined);
    const rows = await this.earnings.holdsOf(this.standings.reader, [...new Set(ids)]);
    return { holds: rows.map(toHoldMessage) };
  }

  private async decide(
    request: { earningId: string; reason: string; actor: string },
    decision: HoldDecision,
    now: Date,
  ): Promise<DecidedHold> {
    const id = uuidOrUndefined(request.earningId);
    if (!id) throw invalid(messages.invalidEarningId);
    const checked = checkHoldDecisionReason(request.reason);
    if (checked.error !== undefined) throw invalid(checked.error);
    const by = request.actor.trim();
    if (!by) throw invalid(messages.invalidActor);
    return this.transactions.run(async (tx) => {
      const earning = await this.earnings.lock(tx, id);
      if (!earning) throw notFound(messages.earningNotFound);
      const d = { decision, by, reason: checked.reason, at: now };
      if (earning.status !== 'held' || !(await this.earnings.decide(tx, id, statusAfter(decision), d)))
        throw failedPrecondition(messages.notHeld);
      await this.outbox.append(tx, decision === 'released' ? 'rewards.earning-released' : 'rewards.earning-voided', {
        earningId: earning.id,
        userId: earning.userId,
        submissionId: earning.submissionId,
        amount: normalizeAmount(earning.amount),
        by,
        reason: checked.reason,
        at: now.toISOString(),
      });
      const decided: EarningRow = { ...earning, status: statusAfter(decision), decision: d };
      return { hold: toHoldMessage(decided), userId: earning.userId };
    });
  }
}

/** An earning's hold as the admin reads it, with who decided. */
export function toHoldMessage(e: EarningRow): rewardsV1.EarningHold {
  return {
    earningId: e.id,
    submissionId: e.submissionId,
    userId: e.userId,
    amount: normalizeAmount(e.amount),
    status: e.status,
    reasons: e.holdReasons ?? [],
    heldAt: (e.heldAt ?? e.createdAt).toISOString(),
    ...(e.decision
      ? { decision: { decision: e.decision.decision, reason: e.decision.reason, at: e.decision.at.toISOString(), by: e.decision.by } }
      : {}),
  };
}
