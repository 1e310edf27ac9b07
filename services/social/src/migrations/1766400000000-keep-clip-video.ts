import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clips read model keeps the video's state and address too, the rest of what decides whether a clip
 * is in the feed (@clipit/contracts' isInFeed), so a clip is liked only once the feed lists it. Rows from
 * before hold 'none' and are refused until their clip's next submission event (any moderation, video or
 * metrics change) brings its video: their events are not replayed.
 */
export class KeepClipVideo1766400000000 implements MigrationInterface {
  name = 'KeepClipVideo1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE clips
        ADD COLUMN video_state text NOT NULL DEFAULT 'none'
          CHECK (video_state IN ('none', 'awaiting-upload', 'processing', 'ready', 'rejected')),
        ADD COLUMN video_url text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE clips DROP COLUMN video_url, DROP COLUMN video_state');
  }
}
