import { randomUUID } from 'node:crypto';
import { LOGGER, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { QueuedMail } from '../domain/mails.js';
import { MAIL_SENDER, type MailSender } from '../mail/mail-sender.js';
import { MailRepository } from '../repositories/mail.repository.js';

/** Messages handed to the sender per transaction of the delivery loop. */
const BATCH = 20;
/** A failed message waits 1 s, 2 s, 4 s … at most 5 minutes before the next try. */
export const retryDelayMs = (attempts: number): number => Math.min(1000 * 2 ** Math.max(0, attempts - 1), 300_000);

export interface DeliveryRound {
  sent: number;
  failed: number;
  dropped: number;
}

/**
 * identity's mail: queued in the transaction of what it tells (so a message exists exactly when its
 * cause committed), then handed to the mail port by the delivery loop. A relay that refuses or does not
 * answer delays the message (backoff); a replica holding a message keeps the others off it.
 */
@Injectable()
export class MailService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly mails: MailRepository,
    @Inject(MAIL_SENDER) private readonly sender: MailSender,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async queue(tx: EntityManager, mail: QueuedMail, now = new Date()): Promise<void> {
    await this.mails.insert(tx, {
      id: randomUUID(),
      kind: mail.kind,
      recipient: mail.to,
      subject: mail.subject,
      body: mail.text,
      createdAt: now,
      expiresAt: mail.expiresAt ?? null,
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      sentAt: null,
      droppedAt: null,
    });
  }

  /** Hands every message due by `now` to the sender, a batch per transaction. */
  async deliverDue(now: () => Date = () => new Date()): Promise<DeliveryRound> {
    const round: DeliveryRound = { sent: 0, failed: 0, dropped: 0 };
    for (;;) {
      const handled = await this.transactions.run(async (tx) => {
        const due = await this.mails.lockDue(tx, now(), BATCH);
        for (const mail of due) {
          const at = now();
          if (mail.expiresAt && mail.expiresAt <= at) {
            await this.mails.update(tx, mail.id, { droppedAt: at, body: '' });
            this.logger.warn(
              { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, lastError: mail.lastError },
              'mail dropped: its link expired before it could be sent',
            );
            round.dropped += 1;
            continue;
          }
          try {
            await this.sender.send({ to: mail.recipient, subject: mail.subject, text: mail.body });
            await this.mails.update(tx, mail.id, { sentAt: now(), body: '', attempts: mail.attempts + 1, lastError: null });
            this.logger.info({ mailId: mail.id, kind: mail.kind, driver: this.sender.driver }, 'mail sent');
            round.sent += 1;
          } catch (err) {
            const attempts = mail.attempts + 1;
            const error = err instanceof Error ? err.message : String(err);
            await this.mails.update(tx, mail.id, {
              attempts,
              lastError: error.slice(0, 500),
              nextAttemptAt: new Date(at.getTime() + retryDelayMs(attempts)),
            });
            this.logger.warn({ mailId: mail.id, kind: mail.kind, attempts, err: error }, 'mail not sent; tried again later');
            round.failed += 1;
          }
        }
        return due.length;
      });
      if (handled < BATCH) return round;
    }
  }
}
