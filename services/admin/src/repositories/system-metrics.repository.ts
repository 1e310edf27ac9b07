import { randomUUID } from 'node:crypto';
import { TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { MetricSample } from '../domain/system-metrics.js';
import { SystemMetricEntity } from '../entities/system-metric.entity.js';

/** One bucket of a metric's series: its start and the worst value in it. */
export interface SeriesPoint {
  metricType: string;
  metricName: string;
  at: Date;
  value: number | null;
}

/** The only code that reads or writes system_metrics and system_metric_runs. */
@Injectable()
export class SystemMetricsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Claims a sampling slot for `replica`: true for the first claim of the slot, false when another
   * replica (or an earlier tick of this one) claimed it already. The primary key decides the race.
   */
  async claimSlot(slot: Date, replica: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO system_metric_runs (slot, sampled_by) VALUES ($1, $2) ON CONFLICT (slot) DO NOTHING RETURNING slot`,
      [slot, replica],
    )) as unknown[];
    return rows.length === 1;
  }

  /** Stores one sample (every metric at `at`) and deletes what is older than `cutoff`, in one transaction. */
  async record(samples: readonly MetricSample[], at: Date, cutoff: Date): Promise<{ deleted: number }> {
    return this.transactions.run(async (tx) => {
      if (samples.length > 0) {
        const rows: SystemMetricEntity[] = samples.map((s) => ({ id: randomUUID(), ...s, createdAt: at }));
        // TypeORM's partial-entity type cannot follow a jsonb column typed as a record; the rows are whole entities.
        await tx
          .createQueryBuilder()
          .insert()
          .into(SystemMetricEntity)
          .values(rows as QueryDeepPartialEntity<SystemMetricEntity>[])
          .updateEntity(false)
          .execute();
      }
      return { deleted: await this.deleteOlderThan(cutoff, tx.query.bind(tx)) };
    });
  }

  /** Deletes the samples and claimed slots older than `cutoff`; answers how many samples went. */
  async deleteOlderThan(cutoff: Date, query = this.dataSource.query.bind(this.dataSource)): Promise<number> {
    await query(`DELETE FROM system_metric_runs WHERE slot < $1`, [cutoff]);
    const result = (await query(
      `WITH gone AS (DELETE FROM system_metrics WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    )) as Array<{ n: number }>;
    return result[0]?.n ?? 0;
  }

  /** Every metric of the newest sample. */
  latest(): Promise<SystemMetricEntity[]> {
    return this.dataSource.manager
      .getRepository(SystemMetricEntity)
      .createQueryBuilder('m')
      .where('m.createdAt = (SELECT max(created_at) FROM system_metrics)')
      .orderBy('m.metricType')
      .addOrderBy('m.metricName')
      .getMany();
  }

  /**
   * Every metric's values since `since`, in buckets of `bucketMs` on a fixed grid (a bucket stays the same
   * bucket from one refetch to the next; the oldest may be partly before `since`): the worst value of each
   * bucket (the highest, or the lowest for the types in `lowerIsWorse`), so a chart never hides a spike.
   */
  async series(since: Date, bucketMs: number, lowerIsWorse: readonly string[]): Promise<SeriesPoint[]> {
    const rows = (await this.dataSource.query(
      `SELECT metric_type, metric_name,
              date_bin(make_interval(secs => $2::double precision / 1000), created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS at,
              CASE WHEN metric_type = ANY($3::text[]) THEN min(value) ELSE max(value) END AS value
         FROM system_metrics
        WHERE created_at >= $1
        GROUP BY 1, 2, 3
        ORDER BY 1, 2, 3`,
      [since, bucketMs, lowerIsWorse],
    )) as Array<{ metric_type: string; metric_name: string; at: Date; value: number | null }>;
    return rows.map((r) => ({ metricType: r.metric_type, metricName: r.metric_name, at: r.at, value: r.value }));
  }
}
