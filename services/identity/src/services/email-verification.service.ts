import { randomUUID } from 'node:crypto';
import type { identityV1 } from '@clipit/contracts';
import { CONFIG, invalid, LOGGER, newSecretToken, notFound, secretTokenHash, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { IdentityConfig } from '../config.js';
import { isLinkToken, linkTo, VERIFICATION_LINK_TTL_MS } from '../domain/link-token.js';
import { emailVerificationMail } from '../domain/mails.js';
import { messages } from '../domain/messages.js';
import { toUserMessage } from '../domain/user.mapper.js';
import type { UserEntity } from '../entities/user.entity.js';
import { EmailLinkRepository } from '../repositories/email-link.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { MailService } from './mail.service.js';

/**
 * E-mail ownership (ADR 0031): a link mailed to an account's address proves the address is the owner's.
 * Password reset links go only to a verified address.
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
    private readonly links: EmailLinkRepository,
    private readonly mail: MailService,
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** In the caller's transaction: a new link for the user's current address, queued to be mailed. */
  async queueLink(tx: EntityManager, user: Pick<UserEntity, 'id' | 'email' | 'twitterUsername'>, now = new Date()): Promise<void> {
    if (!user.email) return;
    const { token, hash } = newSecretToken();
    const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_TTL_MS);
    await this.links.insertVerification(tx, {
      id: randomUUID(),
      userId: user.id,
      email: user.email,
      tokenHash: hash,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    await this.mail.queue(
      tx,
      emailVerificationMail(user.email, user.twitterUsername ?? '', linkTo(this.config.PUBLIC_SITE_URL, '/verify-email', token), expiresAt),
      now,
    );
  }

  /** Mails the user a new link, unless their address is verified already (or they have none). */
  async send(req: identityV1.SendEmailVerificationRequest): Promise<identityV1.SendEmailVerificationResponse> {
    const user = await this.users.getById(req.userId);
    if (!user) throw notFound(messages.userNotFound);
    if (user.emailVerifiedAt || !user.email) return { sent: false };
    await this.transactions.run((tx) => this.queueLink(tx, user));
    return { sent: true };
  }

  /** Opens a link: the address it was sent to is verified, if it is still the account's. Good once. */
  async verify(req: identityV1.VerifyEmailRequest): Promise<identityV1.User> {
    if (!isLinkToken(req.token)) throw invalid(messages.verificationLinkInvalid);
    const now = new Date();
    const user = await this.transactions.run(async (tx) => {
      const link = await this.links.lockVerification(tx, secretTokenHash(req.token));
      if (!link || link.usedAt || link.expiresAt <= now) return undefined;
      const owner = await this.users.getByIdForUpdate(tx, link.userId);
      if (!owner || owner.email?.toLowerCase() !== link.email.toLowerCase()) return undefined;
      await this.links.useVerifications(tx, owner.id, now);
      if (owner.emailVerifiedAt) return owner;
      await this.users.update(tx, owner.id, { emailVerifiedAt: now, updatedAt: now });
      return { ...owner, emailVerifiedAt: now, updatedAt: now };
    });
    if (!user) throw invalid(messages.verificationLinkInvalid);
    this.logger.info({ userId: user.id }, 'e-mail address verified');
    return toUserMessage(user);
  }
}
