import type { HoldCause, SubmissionHoldSnapshot } from '@clipit/contracts';
import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EarningStatus, HoldDecision } from '../domain/earning-hold.js';

/** An admin's decision on a held earning (ADR 0050). */
export interface EarningDecision {
  decision: HoldDecision;
  by: string;
  reason: string;
  at: Date;
}

export interface EarningRow extends KeysetPosition {
  id: string;
  userId: string;
  submissionId: string;
  amount: string;
  type: string;
  status: EarningStatus;
  periodStart: Date | null;
  periodEnd: Date | null;
  txHash: string | null;
  payoutId: string | null;
  /** Why it is (or was) held, in the clipper's words; null when never held. */
  holdReasons: string[] | null;
  heldAt: Date | null;
  decidedCauses: HoldCause[] | null;
  decision: EarningDecision | null;
}

interface EarningRecord {
  id: string;
  user_id: string;
  submission_id: string;
  amount: string;
  type: string;
  status: EarningStatus;
  period_start: Date | null;
  period_end: Date | null;
  tx_hash: string | null;
  payout_id: string | null;
  created_at: Date;
  hold_reasons: string[] | null;
  held_at: Date | null;
  decided_causes: HoldCause[] | null;
  decision: HoldDecision | null;
  decided_by: string | null;
  decision_reason: string | null;
  decided_at: Date | null;
}

const EARNING_COLUMNS = `id, user_id, submission_id, amount::text, type, status, period_start, period_end, tx_hash, payout_id, created_at,
  hold_reasons, held_at, decided_causes, decision, decided_by, decision_reason, decided_at`;

const toEarning = (r: EarningRecord): EarningRow => ({
  id: r.id,
  userId: r.user_id,
  submissionId: r.submission_id,
  amount: r.amount,
  type: r.type,
  status: r.status,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  txHash: r.tx_hash,
  payoutId: r.payout_id,
  createdAt: r.created_at,
  holdReasons: r.hold_reasons,
  heldAt: r.held_at,
  decidedCauses: r.decided_causes,
  decision:
    r.decision && r.decided_at ? { decision: r.decision, by: r.decided_by ?? '', reason: r.decision_reason ?? '', at: r.decided_at } : null,
});

export interface NewEarning {
  id: string;
  userId: string;
  submissionId: string;
  amount: string;
  tierLevel: number;
  multiplier: number;
  createdAt: Date;
  /** Held from the start: the clip was approved while flagged (ADR 0050). */
  hold?: SubmissionHoldSnapshot;
}

/** $CLIP sums as decimal strings (numeric in SQL: no float drift). */
export interface EarningsTotals {
  paid: string;
  /** To be paid by a payout run: pending, held left out. */
  pending: string;
  /** Held until an admin decides (ADR 0050). */
  held: string;
  /** Paid, pending and held: what a voided earning was is not counted. */
  total: string;
}

/**
 * `earnings`: one per approved submission (unique submission_id), pending until a payout pays it; held
 * (never in a payout) while its clip is flagged, until an admin releases it (pending) or voids it (ADR 0050).
 */
@Injectable()
export class EarningRepository {
  /** Adds the earning; false when the submission has one already (a redelivered approval). */
  async add(tx: EntityManager, e: NewEarning): Promise<boolean> {
    const rows = (await tx.query(
      `INSERT INTO earnings (id, user_id, submission_id, amount, tier_level, multiplier, created_at, status, hold_causes, hold_reasons, held_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11)
       ON CONFLICT (submission_id) DO NOTHING RETURNING id`,
      [
        e.id,
        e.userId,
        e.submissionId,
        e.amount,
        e.tierLevel,
        e.multiplier,
        e.createdAt,
        e.hold ? 'held' : 'pending',
        e.hold ? JSON.stringify(e.hold.causes) : null,
        e.hold ? JSON.stringify(e.hold.reasons) : null,
        e.hold ? e.createdAt : null,
      ],
    )) as unknown[];
    return rows.length > 0;
  }

  async totals(tx: EntityManager, userId: string): Promise<EarningsTotals> {
    const rows = (await tx.query(
      `SELECT COALESCE(sum(amount) FILTER (WHERE status = 'paid'), 0)::text AS paid,
              COALESCE(sum(amount) FILTER (WHERE status = 'pending'), 0)::text AS pending,
              COALESCE(sum(amount) FILTER (WHERE status = 'held'), 0)::text AS held,
              COALESCE(sum(amount) FILTER (WHERE status <> 'voided'), 0)::text AS total
       FROM earnings WHERE user_id = $1`,
      [userId],
    )) as EarningsTotals[];
    return rows[0]!;
  }

  /** The clipper's pending earnings not in any payout yet: what a hold on their wallet keeps back (ADR 0032). */
  async unpaid(tx: EntityManager, userId: string): Promise<{ amount: string; count: number }> {
    const rows = (await tx.query(
      "SELECT COALESCE(sum(amount), 0)::text AS amount, count(*)::int AS count FROM earnings WHERE user_id = $1 AND status = 'pending' AND payout_id IS NULL",
      [userId],
    )) as { amount: string; count: number }[];
    return rows[0]!;
  }

  /** The clipper's earnings newest first, strictly before `before`, `limit` of them. */
  async page(tx: EntityManager, userId: string, before: KeysetPosition | undefined, limit: number): Promise<EarningRow[]> {
    const rows = (await tx.query(
      `SELECT ${EARNING_COLUMNS} FROM earnings
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, before?.createdAt ?? null, before?.id ?? null, limit],
    )) as EarningRecord[];
    return rows.map(toEarning);
  }

  /** The submission's earning, locked until the transaction ends (a snapshot that may hold it); undefined when none. */
  async lockBySubmission(tx: EntityManager, submissionId: string): Promise<EarningRow | undefined> {
    const rows = (await tx.query(`SELECT ${EARNING_COLUMNS} FROM earnings WHERE submission_id = $1 FOR UPDATE`, [
      submissionId,
    ])) as EarningRecord[];
    return rows[0] ? toEarning(rows[0]) : undefined;
  }

  /** The earning, locked until the transaction ends (an admin's decision); undefined when none. */
  async lock(tx: EntityManager, id: string): Promise<EarningRow | undefined> {
    const rows = (await tx.query(`SELECT ${EARNING_COLUMNS} FROM earnings WHERE id = $1 FOR UPDATE`, [id])) as EarningRecord[];
    return rows[0] ? toEarning(rows[0]) : undefined;
  }

  /**
   * Holds a pending earning in no payout (the condition again in SQL: a payout run preparing it at the same
   * time wins or loses on the row); false when it was not.
   */
  async hold(tx: EntityManager, id: string, hold: SubmissionHoldSnapshot, at: Date): Promise<boolean> {
    const rows = (await tx.query(
      `UPDATE earnings SET status = 'held', hold_causes = $2::jsonb, hold_reasons = $3::jsonb, held_at = $4
       WHERE id = $1 AND status = 'pending' AND payout_id IS NULL RETURNING id`,
      [id, JSON.stringify(hold.causes), JSON.stringify(hold.reasons), at],
    )) as [unknown[], number];
    return rows[1] > 0;
  }

  /**
   * An admin's decision on a held earning: released (pending again) or voided; the causes it was held for
   * join those decided, so they never hold it again. False when it was not held.
   */
  async decide(tx: EntityManager, id: string, status: EarningStatus, d: EarningDecision): Promise<boolean> {
    const rows = (await tx.query(
      `UPDATE earnings SET status = $2, decision = $3, decided_by = $4, decision_reason = $5, decided_at = $6,
         decided_causes = (SELECT jsonb_agg(DISTINCT c) FROM jsonb_array_elements(COALESCE(decided_causes, '[]'::jsonb) || COALESCE(hold_causes, '[]'::jsonb)) c)
       WHERE id = $1 AND status = 'held' RETURNING id`,
      [id, status, d.decision, d.by, d.reason, d.at],
    )) as [unknown[], number];
    return rows[1] > 0;
  }

  /** The earnings of these submissions that were ever held (the admin list's holds, one read per page). */
  async holdsOf(tx: EntityManager, submissionIds: readonly string[]): Promise<EarningRow[]> {
    if (submissionIds.length === 0) return [];
    const rows = (await tx.query(`SELECT ${EARNING_COLUMNS} FROM earnings WHERE submission_id = ANY($1::uuid[]) AND held_at IS NOT NULL`, [
      submissionIds,
    ])) as EarningRecord[];
    return rows.map(toEarning);
  }
}
