import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * X post metrics (ADR 0029): each submission's verification code (backfilled for existing rows), the
 * scheduling columns the metrics scheduler claims due posts by, the history of every read, and the
 * X accounts users linked (from identity's `user.x-linked`).
 */
export class PostMetrics1764200000000 implements MigrationInterface {
  name = 'PostMetrics1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // 'CLIP-' and 6 characters without look-alikes (domain/verification.ts). The subquery names the row
    // so Postgres draws new characters for each one instead of reusing one code.
    await q.query(`
      UPDATE submissions s SET verification_code = 'CLIP-' || (
        SELECT string_agg(substr('ABCDEFGHJKMNPQRSTUVWXYZ23456789', 1 + floor(random() * 31)::int, 1), '')
          FROM generate_series(1, 6) WHERE s.id IS NOT NULL
      )
      WHERE verification_code IS NULL
    `);
    await q.query(`ALTER TABLE submissions ALTER COLUMN verification_code SET NOT NULL`);
    await q.query(`
      ALTER TABLE submissions
        ADD COLUMN metrics_due_at timestamptz,
        ADD COLUMN metrics_queued_at timestamptz,
        ADD COLUMN metrics_missing_count integer NOT NULL DEFAULT 0,
        ADD COLUMN post_status text NOT NULL DEFAULT 'unchecked' CHECK (post_status IN ('unchecked', 'found', 'missing'))
    `);
    // Posts approved before metrics existed are read at the scheduler's first round.
    await q.query(
      `UPDATE submissions SET metrics_due_at = now() WHERE status = 'approved' AND platform = 'twitter' AND external_id ~ '^[0-9]{1,19}$'`,
    );
    // The scheduler's one query: approved posts due by now, earliest first. Only scheduled rows are in it.
    await q.query(
      `CREATE INDEX submissions_metrics_due_idx ON submissions (metrics_due_at) WHERE status = 'approved' AND metrics_due_at IS NOT NULL`,
    );
    // The primary key (submission_id, fetched_at) is the index one submission's history is read through, in time order.
    await q.query(`
      CREATE TABLE submission_metrics_history (
        submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
        fetched_at timestamptz NOT NULL,
        views bigint NOT NULL,
        likes bigint NOT NULL,
        retweets bigint NOT NULL,
        replies bigint NOT NULL,
        quotes bigint NOT NULL,
        bookmarks bigint NOT NULL,
        PRIMARY KEY (submission_id, fetched_at)
      )
    `);
    await q.query(`
      CREATE TABLE linked_x_accounts (
        user_id uuid PRIMARY KEY,
        x_user_id text NOT NULL,
        x_username text NOT NULL,
        linked_at timestamptz NOT NULL
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE linked_x_accounts');
    await q.query('DROP TABLE submission_metrics_history');
    await q.query('DROP INDEX submissions_metrics_due_idx');
    await q.query(`
      ALTER TABLE submissions
        DROP COLUMN post_status, DROP COLUMN metrics_missing_count, DROP COLUMN metrics_queued_at, DROP COLUMN metrics_due_at,
        ALTER COLUMN verification_code DROP NOT NULL
    `);
  }
}
