import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Re-upload detection (ADR 0048): each processed video's fingerprint, the index keys it is found by, when
 * an upload was fingerprinted (the reconciler re-drives a ready upload that never was: a lost job, and the
 * videos processed before this migration), and the matches of a submission's current video.
 */
export class VideoFingerprints1764400000000 implements MigrationInterface {
  name = 'VideoFingerprints1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE video_fingerprints (
        video_id uuid PRIMARY KEY,
        submission_id uuid NOT NULL,
        user_id uuid NOT NULL,
        frames text[] NOT NULL,
        audio text,
        -- Set when the worker could not make the fingerprint; frames is then empty.
        failed_reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `);
    // The lookup's index: the primary key's leading column is the key.
    await q.query(`
      CREATE TABLE fingerprint_keys (
        key integer NOT NULL,
        video_id uuid NOT NULL REFERENCES video_fingerprints (video_id) ON DELETE CASCADE,
        PRIMARY KEY (key, video_id)
      )
    `);
    await q.query(`ALTER TABLE video_uploads ADD COLUMN fingerprinted_at timestamptz`);
    await q.query(`
      CREATE INDEX video_uploads_unfingerprinted ON video_uploads (completed_at)
        WHERE status = 'ready' AND fingerprinted_at IS NULL
    `);
    // Null until the current video's fingerprint is looked up; [] when it matched nothing.
    await q.query(`ALTER TABLE submissions ADD COLUMN video_matches jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions DROP COLUMN video_matches`);
    await q.query(`DROP INDEX video_uploads_unfingerprinted`);
    await q.query(`ALTER TABLE video_uploads DROP COLUMN fingerprinted_at`);
    await q.query(`DROP TABLE fingerprint_keys`);
    await q.query(`DROP TABLE video_fingerprints`);
  }
}
