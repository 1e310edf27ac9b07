import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A clipper reaching or leaving gold recounts the running campaigns their approved clips deliver to
 * (ADR 0041): this index finds those clips by clipper.
 */
export class IndexClipsByClipper1766900000001 implements MigrationInterface {
  name = 'IndexClipsByClipper1766900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX campaign_clips_user_idx ON campaign_clips (user_id) WHERE status = 'approved'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX campaign_clips_user_idx');
  }
}
