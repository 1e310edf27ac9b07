import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/** One read of a post's metrics (ADR 0029): a point of the owner's views chart. One per submission and read time. */
@Entity({ name: 'submission_metrics_history' })
export class MetricsHistoryEntity {
  @PrimaryColumn({ name: 'submission_id', type: 'uuid' })
  submissionId!: string;

  @PrimaryColumn({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt!: Date;

  @Column({ type: 'bigint', transformer: bigintNumber })
  views!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  likes!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  retweets!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  replies!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  quotes!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  bookmarks!: number;
}
