import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Why a message is sent; its kind names it in logs and tests. */
export type MailKind = 'password-reset' | 'email-verification' | 'wallet-changed';

/** One message to send (mail_queue): pending until sent, tried again with backoff, dropped once its purpose expired. */
@Entity({ name: 'mail_queue' })
export class MailEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  kind!: MailKind;

  @Column({ type: 'text' })
  recipient!: string;

  @Column({ type: 'text' })
  subject!: string;

  /** Emptied once sent: a link in it may carry a token. */
  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Past this, the message is of no use (its link expired): dropped if still unsent. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt!: Date;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'dropped_at', type: 'timestamptz', nullable: true })
  droppedAt!: Date | null;
}
