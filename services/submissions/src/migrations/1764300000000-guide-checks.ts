import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The guide's checks on a processed video and how its served file was made (ADR 0047), from the media
 * worker's `media.processed`. Null for videos processed before, and until a video is processed.
 */
export class GuideChecks1764300000000 implements MigrationInterface {
  name = 'GuideChecks1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE submissions
        ADD COLUMN guide_checks jsonb,
        ADD COLUMN video_processing text CHECK (video_processing IN ('remux', 'transcode'))
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions DROP COLUMN guide_checks, DROP COLUMN video_processing`);
  }
}
