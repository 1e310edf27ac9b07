import { Column, Entity, PrimaryColumn } from 'typeorm';

export type AuditResult = 'ok' | 'refused' | 'failed';

/**
 * One admin action or password attempt (ADR 0020): what, on what, how it ended, from where, under
 * which correlation id, and when. Passwords and tokens are never stored.
 */
@Entity({ name: 'audit_entries' })
export class AuditEntryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  action!: string;

  @Column({ type: 'text', nullable: true })
  target!: string | null;

  @Column({ type: 'text' })
  result!: AuditResult;

  @Column({ type: 'text', nullable: true })
  detail!: string | null;

  /** The id of the admin token it was done with (never the token itself). */
  @Column({ type: 'text', nullable: true })
  actor!: string | null;

  @Column({ name: 'client_ip', type: 'text', nullable: true })
  clientIp!: string | null;

  @Column({ name: 'correlation_id', type: 'text', nullable: true })
  correlationId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
