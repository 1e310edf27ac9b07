import { isUuid, type KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import type { AppealKind } from '@clipit/field-rules';
import { AppealEntity } from '../entities/appeal.entity.js';
import { SubmissionEntity } from '../entities/submission.entity.js';
import type { AdminAppealPosition } from '../domain/appeal.js';

/** Appeals (ADR 0051); every write takes the caller's transaction. */
@Injectable()
export class AppealRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, appeal: AppealEntity): Promise<void> {
    await tx.createQueryBuilder().insert().into(AppealEntity).values(appeal).updateEntity(false).execute();
  }

  async save(tx: EntityManager, appeal: AppealEntity): Promise<void> {
    await tx.getRepository(AppealEntity).save(appeal);
  }

  /** The kinds a submission was appealed for already. */
  async kindsOf(tx: EntityManager, submissionId: string): Promise<AppealKind[]> {
    const rows = await tx.getRepository(AppealEntity).find({ select: { kind: true }, where: { submissionId } });
    return rows.map((r) => r.kind);
  }

  /** The appeal, locked until the transaction ends: two decisions on one appeal run one at a time. */
  async lockById(tx: EntityManager, id: string): Promise<AppealEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (
      (await tx.getRepository(AppealEntity).createQueryBuilder('a').setLock('pessimistic_write').where('a.id = :id', { id }).getOne()) ??
      undefined
    );
  }

  /** A clipper's appeals, newest first: `limit` strictly before `before` in (created_at, id) order. */
  listByUser(userId: string, limit: number, before: KeysetPosition | undefined): Promise<AppealEntity[]> {
    if (!isUuid(userId)) return Promise.resolve([]);
    const query = this.dataSource.manager.getRepository(AppealEntity).createQueryBuilder('a').where('a.userId = :userId', { userId });
    if (before) query.andWhere('(a.createdAt, a.id) < (:createdAt, :id)', { createdAt: before.createdAt, id: before.id });
    return query.orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').limit(limit).getMany();
  }

  /** Every appeal for the admin: pending first, then oldest first, after `after` (the appeals_admin_order index). */
  listForAdmin(limit: number, after: AdminAppealPosition | undefined): Promise<AppealEntity[]> {
    const rank = `(CASE WHEN a.status = 'pending' THEN 0 ELSE 1 END)`;
    const query = this.dataSource.manager.getRepository(AppealEntity).createQueryBuilder('a');
    if (after)
      query.where(`(${rank}, a.created_at, a.id) > (:rank, :createdAt, :id)`, {
        rank: after.rank,
        createdAt: after.createdAt,
        id: after.id,
      });
    return query.orderBy(rank, 'ASC').addOrderBy('a.createdAt', 'ASC').addOrderBy('a.id', 'ASC').limit(limit).getMany();
  }

  /** The clips of a page of appeals, by id, in one query. */
  async clipsOf(submissionIds: readonly string[], tx: EntityManager = this.dataSource.manager): Promise<Map<string, SubmissionEntity>> {
    const ids = [...new Set(submissionIds)];
    if (ids.length === 0) return new Map();
    const rows = await tx.getRepository(SubmissionEntity).find({ where: { id: In(ids) } });
    return new Map(rows.map((s) => [s.id, s]));
  }
}
