import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ClipperApplicationEntity } from '../entities/clipper-application.entity.js';

/** The only code that reads or writes clipper_applications; writes take the caller's transaction. */
@Injectable()
export class ApplicationRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, application: ClipperApplicationEntity): Promise<void> {
    await tx.createQueryBuilder().insert().into(ClipperApplicationEntity).values(application).updateEntity(false).execute();
  }

  /** `limit` applications strictly older than `before`, newest first (index clipper_applications_created_idx). */
  listPage(limit: number, before: KeysetPosition | undefined): Promise<ClipperApplicationEntity[]> {
    const query = this.dataSource.manager.getRepository(ClipperApplicationEntity).createQueryBuilder('a');
    if (before) query.where('(a.createdAt, a.id) < (:createdAt, :id)', { createdAt: before.createdAt, id: before.id });
    return query.orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').limit(limit).getMany();
  }

  count(): Promise<number> {
    return this.dataSource.manager.getRepository(ClipperApplicationEntity).count();
  }
}
