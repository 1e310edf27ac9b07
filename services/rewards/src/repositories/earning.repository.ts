import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface EarningRow extends KeysetPosition {
  id: string;
  userId: string;
  submissionId: string;
  amount: string;
  type: string;
  status: 'pending' | 'paid';
  periodStart: Date | null;
  periodEnd: Date | null;
  txHash: string | null;
  payoutId: string | null;
}

interface EarningRecord {
  id: string;
  user_id: string;
  submission_id: string;
  amount: string;
  type: string;
  status: 'pending' | 'paid';
  period_start: Date | null;
  period_end: Date | null;
  tx_hash: string | null;
  payout_id: string | null;
  created_at: Date;
}

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
});

export interface NewEarning {
  id: string;
  userId: string;
  submissionId: string;
  amount: string;
  tierLevel: number;
  multiplier: number;
  createdAt: Date;
}

/** $CLIP sums as decimal strings (numeric in SQL: no float drift). */
export interface EarningsTotals {
  paid: string;
  pending: string;
  total: string;
}

/** `earnings`: one per approved submission (unique submission_id), pending until a payout pays it. */
@Injectable()
export class EarningRepository {
  /** Adds the earning; false when the submission has one already (a redelivered approval). */
  async add(tx: EntityManager, e: NewEarning): Promise<boolean> {
    const rows = (await tx.query(
      `INSERT INTO earnings (id, user_id, submission_id, amount, tier_level, multiplier, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (submission_id) DO NOTHING RETURNING id`,
      [e.id, e.userId, e.submissionId, e.amount, e.tierLevel, e.multiplier, e.createdAt],
    )) as unknown[];
    return rows.length > 0;
  }

  async totals(tx: EntityManager, userId: string): Promise<EarningsTotals> {
    const rows = (await tx.query(
      `SELECT COALESCE(sum(amount) FILTER (WHERE status = 'paid'), 0)::text AS paid,
              COALESCE(sum(amount) FILTER (WHERE status = 'pending'), 0)::text AS pending,
              COALESCE(sum(amount), 0)::text AS total
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
      `SELECT id, user_id, submission_id, amount::text, type, status, period_start, period_end, tx_hash, payout_id, created_at FROM earnings
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, before?.createdAt ?? null, before?.id ?? null, limit],
    )) as EarningRecord[];
    return rows.map(toEarning);
  }
}
