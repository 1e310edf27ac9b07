import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface PayoutRow {
  id: string;
  userId: string;
  periodStart: Date;
  periodEnd: Date;
  walletAddress: string;
  amount: string;
  earningsCount: number;
  status: 'prepared' | 'paid';
  driver: string;
  reference: string;
  txHash: string | null;
  createdAt: Date;
  paidAt: Date | null;
}

interface PayoutRecord {
  id: string;
  user_id: string;
  period_start: Date;
  period_end: Date;
  wallet_address: string;
  amount: string;
  earnings_count: number;
  status: 'prepared' | 'paid';
  driver: string;
  reference: string;
  tx_hash: string | null;
  created_at: Date;
  paid_at: Date | null;
}

const COLUMNS =
  'id, user_id, period_start, period_end, wallet_address, amount::text, earnings_count, status, driver, reference, tx_hash, created_at, paid_at';

const toPayout = (r: PayoutRecord): PayoutRow => ({
  id: r.id,
  userId: r.user_id,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  walletAddress: r.wallet_address,
  amount: r.amount,
  earningsCount: r.earnings_count,
  status: r.status,
  driver: r.driver,
  reference: r.reference,
  txHash: r.tx_hash,
  createdAt: r.created_at,
  paidAt: r.paid_at,
});

/** The advisory lock key of the payout run (any fixed number this database uses for nothing else). */
const PAYOUT_RUN_LOCK = 7_202_611;

/** A payout skip held for a replaced wallet (ADR 0032): whose, and for which period. */
export interface HeldSkip {
  userId: string;
  periodEnd: Date;
}

/** A paid payout's place in the ledger (newest paid first): its paid time and id. */
export type LedgerPosition = KeysetPosition;

/**
 * `payouts` (one per clipper and period: unique user_id + period_end) and the earnings they gather;
 * `payout_skips` says why a clipper was not paid for a period.
 */
@Injectable()
export class PayoutRepository {
  constructor(private readonly dataSource: DataSource) {}

  get reader(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Runs `work` holding the payout run's advisory lock on a connection of its own; undefined without
   * running it when another run (another replica, a manual trigger) holds the lock.
   */
  async exclusively<T>(work: () => Promise<T>): Promise<T | undefined> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [PAYOUT_RUN_LOCK])) as [{ locked: boolean }];
      if (!locked) return undefined;
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [PAYOUT_RUN_LOCK]);
      }
    } finally {
      await runner.release();
    }
  }

  /** Clippers with pending earnings created before `periodEnd` and no payout yet, after `afterId`, `limit` at a time. */
  async clippersOwed(tx: EntityManager, periodEnd: Date, afterId: string | null, limit: number): Promise<string[]> {
    const rows = (await tx.query(
      `SELECT DISTINCT user_id FROM earnings WHERE status = 'pending' AND payout_id IS NULL AND created_at < $1
         AND ($2::uuid IS NULL OR user_id > $2::uuid) ORDER BY user_id LIMIT $3`,
      [periodEnd, afterId, limit],
    )) as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  /** How many of the clipper's pending earnings made before `periodEnd` are in no payout yet. */
  async owedBefore(tx: EntityManager, userId: string, periodEnd: Date): Promise<number> {
    const rows = (await tx.query(
      `SELECT count(*)::int AS n FROM earnings WHERE user_id = $1 AND status = 'pending' AND payout_id IS NULL AND created_at < $2`,
      [userId, periodEnd],
    )) as { n: number }[];
    return rows[0]!.n;
  }

  /**
   * Creates the clipper's payout for the period, gathering their pending earnings created before its end,
   * unless one exists: the payout row's unique (user_id, period_end) is what makes a second run, or a
   * run racing this one, create nothing. Undefined when there was nothing to gather.
   */
  async prepare(
    tx: EntityManager,
    p: { id: string; userId: string; periodStart: Date; periodEnd: Date; walletAddress: string; driver: string; reference: string },
  ): Promise<PayoutRow | undefined> {
    const owed = (await tx.query(
      `SELECT COALESCE(sum(amount), 0)::text AS amount, count(*)::int AS n FROM earnings
       WHERE user_id = $1 AND status = 'pending' AND payout_id IS NULL AND created_at < $2`,
      [p.userId, p.periodEnd],
    )) as { amount: string; n: number }[];
    const { amount, n } = owed[0]!;
    if (n === 0 || Number(amount) <= 0) return undefined;
    const inserted = (await tx.query(
      `INSERT INTO payouts (id, user_id, period_start, period_end, wallet_address, amount, earnings_count, status, driver, reference)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'prepared', $8, $9) ON CONFLICT ON CONSTRAINT payouts_period_key DO NOTHING RETURNING ${COLUMNS}`,
      [p.id, p.userId, p.periodStart, p.periodEnd, p.walletAddress, amount, n, p.driver, p.reference],
    )) as PayoutRecord[];
    if (!inserted[0]) return undefined;
    await tx.query(
      `UPDATE earnings SET payout_id = $1, period_start = $2, period_end = $3
       WHERE user_id = $4 AND status = 'pending' AND payout_id IS NULL AND created_at < $3`,
      [p.id, p.periodStart, p.periodEnd, p.userId],
    );
    return toPayout(inserted[0]);
  }

  /** Prepared payouts (sent or not: the driver finds out), oldest first. */
  async prepared(tx: EntityManager, limit: number): Promise<PayoutRow[]> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM payouts WHERE status = 'prepared' ORDER BY created_at, id LIMIT $1`, [
      limit,
    ])) as PayoutRecord[];
    return rows.map(toPayout);
  }

  /** Locks a payout; undefined when it is not prepared any more (another run paid it). */
  async lockPrepared(tx: EntityManager, id: string): Promise<PayoutRow | undefined> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM payouts WHERE id = $1 AND status = 'prepared' FOR UPDATE`, [
      id,
    ])) as PayoutRecord[];
    return rows[0] ? toPayout(rows[0]) : undefined;
  }

  /** The payout and its earnings become paid, with the transaction's signature. */
  async markPaid(tx: EntityManager, id: string, txHash: string, at: Date): Promise<void> {
    await tx.query("UPDATE payouts SET status = 'paid', tx_hash = $2, paid_at = $3 WHERE id = $1 AND status = 'prepared'", [
      id,
      txHash,
      at,
    ]);
    await tx.query("UPDATE earnings SET status = 'paid', tx_hash = $2 WHERE payout_id = $1", [id, txHash]);
  }

  /**
   * Records that the clipper was not paid for the period, and why (their earnings wait); `heldUntil` when
   * the reason is a hold on a replaced wallet (ADR 0032), null otherwise. A skip recorded again is open again.
   */
  async skip(tx: EntityManager, userId: string, periodEnd: Date, reason: string, heldUntil: Date | null = null): Promise<void> {
    await tx.query(
      `INSERT INTO payout_skips (user_id, period_end, reason, amount, held_until)
       SELECT $1, $2, $3, COALESCE(sum(amount), 0), $4 FROM earnings WHERE user_id = $1 AND status = 'pending' AND payout_id IS NULL AND created_at < $2
       ON CONFLICT (user_id, period_end) DO UPDATE SET reason = excluded.reason, amount = excluded.amount, held_until = excluded.held_until, released_at = NULL`,
      [userId, periodEnd, reason, heldUntil],
    );
  }

  async skips(
    tx: EntityManager,
    periodEnd: Date,
  ): Promise<{ userId: string; reason: string; amount: string; heldUntil: Date | null; releasedAt: Date | null }[]> {
    const rows = (await tx.query(
      'SELECT user_id, reason, amount::text, held_until, released_at FROM payout_skips WHERE period_end = $1 ORDER BY user_id',
      [periodEnd],
    )) as {
      user_id: string;
      reason: string;
      amount: string;
      held_until: Date | null;
      released_at: Date | null;
    }[];
    return rows.map((r) => ({ userId: r.user_id, reason: r.reason, amount: r.amount, heldUntil: r.held_until, releasedAt: r.released_at }));
  }

  /**
   * Holds that are over at `now` and not released yet, in (user, period) order after `after`, `limit` at
   * a time.
   */
  async holdsDue(tx: EntityManager, now: Date, after: HeldSkip | undefined, limit: number): Promise<HeldSkip[]> {
    const rows = (await tx.query(
      `SELECT user_id, period_end FROM payout_skips WHERE held_until IS NOT NULL AND released_at IS NULL AND held_until <= $1
         AND ($2::uuid IS NULL OR (user_id, period_end) > ($2::uuid, $3::timestamptz))
       ORDER BY user_id, period_end LIMIT $4`,
      [now, after?.userId ?? null, after?.periodEnd ?? null, limit],
    )) as { user_id: string; period_end: Date }[];
    return rows.map((r) => ({ userId: r.user_id, periodEnd: r.period_end }));
  }

  /** The hold is over: its earnings were paid (or nothing was left to pay). */
  async releaseSkip(tx: EntityManager, skip: HeldSkip, at: Date): Promise<void> {
    await tx.query('UPDATE payout_skips SET released_at = $3 WHERE user_id = $1 AND period_end = $2 AND released_at IS NULL', [
      skip.userId,
      skip.periodEnd,
      at,
    ]);
  }

  /** The clipper's payout for the period, whatever its status; undefined when there is none. */
  async ofPeriod(tx: EntityManager, userId: string, periodEnd: Date): Promise<PayoutRow | undefined> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM payouts WHERE user_id = $1 AND period_end = $2`, [
      userId,
      periodEnd,
    ])) as PayoutRecord[];
    return rows[0] ? toPayout(rows[0]) : undefined;
  }

  /** Paid payouts, newest first (by paid time), strictly before `before`; only `userId`'s when given. */
  async ledger(tx: EntityManager, before: LedgerPosition | undefined, limit: number, userId?: string): Promise<PayoutRow[]> {
    const rows = (await tx.query(
      `SELECT ${COLUMNS} FROM payouts WHERE status = 'paid' AND ($1::uuid IS NULL OR user_id = $1::uuid)
         AND ($2::timestamptz IS NULL OR (paid_at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY paid_at DESC, id DESC LIMIT $4`,
      [userId ?? null, before?.createdAt ?? null, before?.id ?? null, limit],
    )) as PayoutRecord[];
    return rows.map(toPayout);
  }
}
