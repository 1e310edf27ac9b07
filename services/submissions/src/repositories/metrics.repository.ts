import type { UserXLinkedV1 } from '@clipit/contracts';
import { isUuid } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DuePost } from '../domain/metrics-schedule.js';
import { MetricsHistoryEntity } from '../entities/metrics-history.entity.js';

/**
 * What post metrics keep beside the submission rows: the scheduler's claims on due posts, each read's
 * history, and the X accounts users linked. The scheduler's and history's reads are plain SQL on
 * their indexes (the due index, the history's primary key): they run over every approved post.
 */
@Injectable()
export class MetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` approved posts due by `now`, earliest first, locked FOR UPDATE SKIP LOCKED: rows
   * another replica's round holds are passed over, so two rounds never claim the same post. The lock
   * lasts until the caller's transaction ends, in which it marks them queued (`markQueued`).
   */
  async lockDue(tx: EntityManager, now: Date, limit: number): Promise<DuePost[]> {
    const rows = (await tx.query(
      `SELECT id, external_id, metrics_due_at FROM submissions
        WHERE status = 'approved' AND metrics_due_at IS NOT NULL AND metrics_due_at <= $1
        ORDER BY metrics_due_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [now, limit],
    )) as Array<{ id: string; external_id: string; metrics_due_at: Date }>;
    return rows.map((r) => ({ submissionId: r.id, externalId: r.external_id, dueAt: r.metrics_due_at }));
  }

  /** Queued at `now`; due again at `retryAt` only if their answer never comes (a lost job): applying one sets the real next time. */
  async markQueued(tx: EntityManager, ids: readonly string[], now: Date, retryAt: Date): Promise<void> {
    await tx.query(`UPDATE submissions SET metrics_queued_at = $2, metrics_due_at = $3 WHERE id = ANY($1::uuid[])`, [ids, now, retryAt]);
  }

  /** One read's point; a second read stored for the same instant (a replay) adds nothing. */
  async addHistory(tx: EntityManager, point: MetricsHistoryEntity): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(MetricsHistoryEntity)
      .values(point)
      .orIgnore()
      .updateEntity(false)
      .execute();
  }

  /** The latest `limit` points of a submission's history, newest first (read backwards through the primary key). */
  latestHistory(submissionId: string, limit: number): Promise<MetricsHistoryEntity[]> {
    if (!isUuid(submissionId)) return Promise.resolve([]);
    return this.dataSource.manager
      .getRepository(MetricsHistoryEntity)
      .createQueryBuilder('h')
      .where('h.submissionId = :submissionId', { submissionId })
      .orderBy('h.fetchedAt', 'DESC')
      .limit(limit)
      .getMany();
  }

  /** The X user id the user linked, if any. */
  async linkedXUserId(tx: EntityManager, userId: string): Promise<string | null> {
    const rows = (await tx.query('SELECT x_user_id FROM linked_x_accounts WHERE user_id = $1', [userId])) as Array<{ x_user_id: string }>;
    return rows[0]?.x_user_id ?? null;
  }

  /** Keeps the latest link of each user: an older event arriving late changes nothing. */
  async saveLinkedAccount(tx: EntityManager, link: UserXLinkedV1): Promise<void> {
    await tx.query(
      `INSERT INTO linked_x_accounts (user_id, x_user_id, x_username, linked_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET x_user_id = excluded.x_user_id, x_username = excluded.x_username, linked_at = excluded.linked_at
       WHERE linked_x_accounts.linked_at <= excluded.linked_at`,
      [link.userId, link.xUserId, link.xUsername, link.linkedAt],
    );
  }
}
