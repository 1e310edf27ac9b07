import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The view-risk score (ADR 0049): each read's video views (X's media view count; null for a post without
 * a video, or reads from before), and on the submission the score (0 to 100) and its reasons, null until
 * the post has been read twice.
 */
export class ViewRisk1764500000000 implements MigrationInterface {
  name = 'ViewRisk1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submission_metrics_history ADD COLUMN video_views bigint`);
    await q.query(`
      ALTER TABLE submissions
        ADD COLUMN risk_score integer CHECK (risk_score BETWEEN 0 AND 100),
        ADD COLUMN risk_reasons jsonb
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions DROP COLUMN risk_score, DROP COLUMN risk_reasons`);
    await q.query(`ALTER TABLE submission_metrics_history DROP COLUMN video_views`);
  }
}
