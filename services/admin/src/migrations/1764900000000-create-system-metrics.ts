import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * system_metrics (spec 02 §3): one row per metric per sample, kept 7 days (ADR 0039). Every row of one
 * sample carries the sample's time, so "the latest sample" is the rows at the newest created_at.
 * system_metric_runs: the sampling slots claimed, one row each, so two replicas never sample one slot.
 */
export class CreateSystemMetrics1764900000000 implements MigrationInterface {
  name = 'CreateSystemMetrics1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE system_metrics (
        id uuid PRIMARY KEY,
        metric_type text NOT NULL CHECK (length(metric_type) BETWEEN 1 AND 64),
        metric_name text NOT NULL CHECK (length(metric_name) BETWEEN 1 AND 200),
        value double precision,
        unit text NOT NULL,
        status text NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'warning', 'critical')),
        threshold double precision,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The latest sample, the retention sweep (both by time) and one metric's 24 hours.
    await q.query(`CREATE INDEX system_metrics_created_idx ON system_metrics (created_at)`);
    await q.query(`CREATE INDEX system_metrics_metric_idx ON system_metrics (metric_type, metric_name, created_at)`);
    await q.query(`
      CREATE TABLE system_metric_runs (
        slot timestamptz PRIMARY KEY,
        sampled_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE system_metric_runs');
    await q.query('DROP TABLE system_metrics');
  }
}
