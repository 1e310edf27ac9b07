import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A link mailed to verify an address: good once, until it expires, and only while the account still has that address. */
@Entity({ name: 'email_verifications' })
export class EmailVerificationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}

/**
 * A password reset asked for. Until it is matched (processedAt null): the handle and address asked with and
 * the new password's hash, alike for every request. Matched with a link: the account, the link's token
 * (hashed) and the password's hash, applied once when the link is confirmed in time. Otherwise: only when
 * and from where.
 */
@Entity({ name: 'password_reset_requests' })
export class PasswordResetRequestEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ name: 'token_hash', type: 'text', nullable: true })
  tokenHash!: string | null;

  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  ip!: string | null;

  /** As asked, until the request is matched to an account (then cleared). */
  @Column({ type: 'text', nullable: true })
  handle!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt!: Date | null;
}
