import type { AppealKind, AppealStatus } from '@clipit/field-rules';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A clipper's appeal of their clip's rejection or held earning (ADR 0051): one per clip and kind. */
@Entity({ name: 'appeals' })
export class AppealEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'submission_id', type: 'uuid' })
  submissionId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  kind!: AppealKind;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'text' })
  status!: AppealStatus;

  /** The held earning a hold appeal is about; null for a rejection. */
  @Column({ name: 'earning_id', type: 'uuid', nullable: true })
  earningId!: string | null;

  /** What was appealed, as it stood when filed: the rejection's reason, or the hold's reasons. */
  @Column({ name: 'rejected_reason', type: 'text', nullable: true })
  rejectedReason!: string | null;

  @Column({ name: 'hold_reasons', type: 'jsonb', nullable: true })
  holdReasons!: string[] | null;

  @Column({ name: 'decision_reason', type: 'text', nullable: true })
  decisionReason!: string | null;

  @Column({ name: 'decided_by', type: 'text', nullable: true })
  decidedBy!: string | null;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
