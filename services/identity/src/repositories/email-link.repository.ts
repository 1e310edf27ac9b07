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
    return tx
      .getRepository(EmailVerificationEntity)
      .createQueryBuilder('v')
      .setLock('pessimistic_write')
      .where('v.token_hash = :tokenHash', { tokenHash })
      .getOne();
  }

  /** Marks every unused verification of the user as used (the one opened, and the older ones it makes moot). */
  async useVerifications(tx: EntityManager, userId: string, at: Date): Promise<void> {
    await tx
      .getRepository(EmailVerificationEntity)
      .createQueryBuilder()
      .update()
      .set({ usedAt: at })
      .where('user_id = :userId AND used_at IS NULL', { userId })
      .execute();
  }

  async insertResetRequest(tx: EntityManager, request: PasswordResetRequestEntity): Promise<void> {
    await tx.getRepository(PasswordResetRequestEntity).insert(request);
  }

  /** Up to `limit` requests not matched yet, oldest first, locked (another replica skips them). */
  lockPendingResetRequests(tx: EntityManager, limit: number): Promise<PasswordResetRequestEntity[]> {
    return tx
      .getRepository(PasswordResetRequestEntity)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('r.processed_at IS NULL')
      .orderBy('r.created_at')
      .limit(limit)
      .getMany();
  }

  /** Records how a pending request was matched: with a link (account, token hash) or not (the password hash dropped). */
  async settleResetRequest(tx: EntityManager, id: string, outcome: { userId: string; tokenHash: string } | null, at: Date): Promise<void> {
    await tx
      .getRepository(PasswordResetRequestEntity)
      .update(
        { id },
        outcome
          ? { userId: outcome.userId, tokenHash: outcome.tokenHash, handle: null, email: null, processedAt: at }
          : { passwordHash: null, handle: null, email: null, processedAt: at },
      );
  }

  /** The reset request behind a token's hash, locked until the transaction ends. */
  lockResetRequest(tx: EntityManager, tokenHash: string): Promise<PasswordResetRequestEntity | null> {
    return tx
      .getRepository(PasswordResetRequestEntity)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.token_hash = :tokenHash', { tokenHash })
      .getOne();
  }

  /** Marks every unused reset request of the user as used: the one confirmed, and any older link with it. */
  async useResetRequests(tx: EntityManager, userId: string, at: Date): Promise<void> {
    await tx
      .getRepository(PasswordResetRequestEntity)
      .createQueryBuilder()
      .update()
      .set({ usedAt: at })
      .where('user_id = :userId AND used_at IS NULL', { userId })
      .execute();
  }

  /** Reset links mailed to this account since `since`. */
  countResetLinksSince(userId: string, since: Date): Promise<number> {
    return this.dataSource.getRepository(PasswordResetRequestEntity).countBy({ userId, createdAt: MoreThan(since) });
  }
}
