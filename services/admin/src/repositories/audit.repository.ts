import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditEntryEntity } from '../entities/audit-entry.entity.js';

/** The only code that reads or writes audit_entries. */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(entry: AuditEntryEntity): Promise<void> {
    await this.dataSource.manager.createQueryBuilder().insert().into(AuditEntryEntity).values(entry).updateEntity(false).execute();
  }

  /** `limit` entries strictly older than `before`, newest first. */
  listPage(limit: number, before: KeysetPosition | undefined): Promise<AuditEntryEntity[]> {
    const query = this.dataSource.manager.getRepository(AuditEntryEntity).createQueryBuilder('a');
    if (before) query.where('(a.createdAt, a.id) < (:createdAt, :id)', { createdAt: before.createdAt, id: before.id });
    return query.orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').limit(limit).getMany();
  }
}
