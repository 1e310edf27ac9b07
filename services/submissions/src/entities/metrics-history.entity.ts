import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = { to: (v: number) => v, from: (v: string) => Number(v) };
const nullableBigintNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

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

  /** The video's own views as X counts them (ADR 0049); null for a post without a video, X not giving them, or reads from before. */
  @Column({ name: 'video_views', type: 'bigint', nullable: true, transformer: nullableBigintNumber })
  videoViews!: number | null;
}
