import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { MetricStatus } from '../domain/system-metrics.js';

/** One metric of one sample of the platform's health (spec 02 §3 system_metrics; ADR 0039). */
@Entity({ name: 'system_metrics' })
export class SystemMetricEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** readiness, queue_depth, dead_letters or consumer_lag */
  @Column({ name: 'metric_type', type: 'text' })
  metricType!: string;

  /** The service, queue, stream or consumer measured. */
  @Column({ name: 'metric_name', type: 'text' })
  metricName!: string;

  /** Null when it could not be measured (the error is in metadata). */
  @Column({ type: 'double precision', nullable: true })
  value!: number | null;

  @Column({ type: 'text' })
  unit!: string;

  @Column({ type: 'text' })
  status!: MetricStatus;

  @Column({ type: 'double precision', nullable: true })
  threshold!: number | null;

  @Column({ type: 'jsonb' })
  metadata!: Record<string, unknown>;

  /** The time of the sample it belongs to (the same for every metric of one sample). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
