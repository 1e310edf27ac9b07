import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan, type EntityManager } from 'typeorm';
import { EmailVerificationEntity, PasswordResetRequestEntity } from '../entities/email-link.entity.js';

/** The only code that reads or writes email_verifications and password_reset_requests. */
@Injectable()
export class EmailLinkRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertVerification(tx: EntityManager, link: EmailVerificationEntity): Promise<void> {
    await tx.getRepository(EmailVerificationEntity).insert(link);
  }

  /** The verification behind a token's hash, locked until the transaction ends: a link is used once. */
  lockVerification(tx: EntityManager, tokenHash: string): Promise<EmailVerificationEntity | null> {
    return tx.getRepository(EmailVerificationEntity).createQueryBuilder('v').setLock('pessimistic_write').where('v.token_hash = :tokenHash', { tokenHash }).getOne();
  }

  /** Marks every unused verification of the user as used (the one opened, and the older ones it makes moot). */
  async useVerifications(tx: EntityManager, userId: string, at: Date): Promise<void> {
    await tx.getRepository(EmailVerificationEntity).createQueryBuilder().update().set({ usedAt: at }).where('user_id = :userId AND used_at IS NULL', { userId }).execute();
  }

  async insertResetRequest(tx: EntityManager, request: PasswordResetRequestEntity): Promise<void> {
    await tx.getRepository(PasswordResetRequestEntity).insert(request);
  }

  /** The reset request behind a token's hash, locked until the transaction ends. */
  lockResetRequest(tx: EntityManager, tokenHash: string): Promise<PasswordResetRequestEntity | null> {
    return tx.getRepository(PasswordResetRequestEntity).createQueryBuilder('r').setLock('pessimistic_write').where('r.token_hash = :tokenHash', { tokenHash }).getOne();
  }

  /** Marks every unused reset request of the user as used: the one confirmed, and any older link with it. */
  async useResetRequests(tx: EntityManager, userId: string, at: Date): Promise<void> {
    await tx.getRepository(PasswordResetRequestEntity).createQueryBuilder().update().set({ usedAt: at }).where('user_id = :userId AND used_at IS NULL', { userId }).execute();
  }

  /** Reset links mailed to this account since `since`. */
  countResetLinksSince(userId: string, since: Date): Promise<number> {
    return this.dataSource.getRepository(PasswordResetRequestEntity).countBy({ userId, createdAt: MoreThan(since) });
  }
}
