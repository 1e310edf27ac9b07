import type { AppealSnapshot, HoldCause, SubmissionHoldSnapshot } from '@clipit/contracts';

// The hold rule of ADR 0050, as pure functions: when an earning of a flagged clip is held, and what an
// admin's decision may change. Submissions decides what is flagged (the snapshot's `hold`); rewards only
// decides what that does to money.

export type EarningStatus = 'pending' | 'held' | 'voided' | 'paid';
export type HoldDecision = 'released' | 'voided';

/** What the rule reads of an existing earning. */
export interface HoldableEarning {
  status: EarningStatus;
  payoutId: string | null;
  /** The causes an admin decided on (released or voided); null when never decided. */
  decidedCauses: readonly HoldCause[] | null;
}

/**
 * The hold to put on an earning given its clip's flag, or undefined when it stays as it is: not flagged;
 * not pending (already held, voided or paid); already in a payout (it is paid as that payout was
 * prepared, ADR 0050); or decided by an admin on every cause flagged now (a new cause holds it again).
 * `earning` undefined is an earning being created (the clip approved while flagged).
 */
export function holdFor(
  earning: HoldableEarning | undefined,
  flag: SubmissionHoldSnapshot | null | undefined,
): SubmissionHoldSnapshot | undefined {
  if (!flag || flag.causes.length === 0) return undefined;
  if (!earning) return flag;
  if (earning.status !== 'pending' || earning.payoutId !== null) return undefined;
  const decided = new Set(earning.decidedCauses ?? []);
  return flag.causes.some((cause) => !decided.has(cause)) ? flag : undefined;
}

/** The status an admin's decision leaves a held earning in: released is paid by the next payout run, voided never. */
export function statusAfter(decision: HoldDecision): EarningStatus {
  return decision === 'released' ? 'pending' : 'voided';
}

/**
 * The release an appeal's decision asks for (ADR 0051): only an overturned appeal of a hold, naming its
 * earning; undefined for anything else (a rejection's appeal, an upheld one, one still pending).
 */
export function releasesHeldEarning(appeal: AppealSnapshot): { earningId: string; by: string; reason: string; at: Date } | undefined {
  if (appeal.kind !== 'hold' || appeal.status !== 'overturned' || !appeal.earningId || !appeal.decision) return undefined;
  return { earningId: appeal.earningId, by: appeal.decision.by, reason: appeal.decision.reason, at: new Date(appeal.decision.at) };
}
