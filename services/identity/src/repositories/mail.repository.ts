import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MailEntity } from '../entities/mail.entity.js';

/** The only code that reads or writes the mail_queue table. */
@Injectable()
export class MailRepository {
  async insert(tx: EntityManager, mail: MailEntity): Promise<void> {
    await tx.getRepository(MailEntity).insert(mail);
  }

  /**
   * Locks up to `limit` messages due now, oldest first, for this transaction; a row another replica holds
   * is skipped, so two replicas never send one message twice.
   */
  lockDue(tx: EntityManager, now: Date, limit: number): Promise<MailEntity[]> {
    return tx
      .getRepository(MailEntity)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('m.sent_at IS NULL AND m.dropped_at IS NULL AND m.next_attempt_at <= :now', { now })
      .orderBy('m.next_attempt_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  async update(tx: EntityManager, id: string, patch: Partial<MailEntity>): Promise<void> {
    await tx.getRepository(MailEntity).update({ id }, patch);
  }
}
