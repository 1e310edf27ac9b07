import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Post submissions (every stored field of spec 02 §3; a post is submitted once per platform) and
 * their video uploads, from the upload URL to the media worker's verdict.
 */
export class CreateSubmissionsTables1764000000000 implements MigrationInterface {
  name = 'CreateSubmissionsTables1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE submissions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        token_id uuid,
        streamer_id uuid,
        name text NOT NULL,
        url text NOT NULL,
        platform text NOT NULL DEFAULT 'twitter',
        external_id text NOT NULL,
        author_handle text NOT NULL,
        wallet_address text NOT NULL,
        additional_info text CHECK (char_length(additional_info) <= 150),
        verification_code text,
        verified_at timestamptz,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        added_to_feed boolean NOT NULL DEFAULT false CHECK (NOT added_to_feed OR status = 'approved'),
        rejected_reason text,
        approved_at timestamptz,
        video_state text NOT NULL DEFAULT 'none'
          CHECK (video_state IN ('none', 'awaiting-upload', 'processing', 'ready', 'rejected')),
        has_video boolean NOT NULL DEFAULT false CHECK (has_video = (video_state = 'ready')),
        video_id uuid,
        video_rejected_reason text,
        video_file_name text,
        video_file_size bigint,
        mux_asset_id text,
        mux_upload_id text,
        mux_status text,
        mux_playback_id text,
        video_url text,
        video_thumbnail_url text,
        video_duration double precision,
        video_aspect_ratio text,
        views bigint NOT NULL DEFAULT 0,
        likes bigint NOT NULL DEFAULT 0,
        retweets bigint NOT NULL DEFAULT 0,
        replies bigint NOT NULL DEFAULT 0,
        quote_count bigint NOT NULL DEFAULT 0,
        bookmark_count bigint NOT NULL DEFAULT 0,
        published_at timestamptz,
        last_metrics_fetch timestamptz,
        raw_metrics jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT submissions_platform_external_id_key UNIQUE (platform, external_id)
      )
    `);
    await q.query(`CREATE INDEX submissions_user_created_idx ON submissions (user_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX submissions_created_idx ON submissions (created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE video_uploads (
        id uuid PRIMARY KEY,
        submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        storage_key text NOT NULL,
        token_hash text NOT NULL,
        status text NOT NULL DEFAULT 'awaiting-upload'
          CHECK (status IN ('awaiting-upload', 'processing', 'ready', 'rejected', 'aborted', 'expired')),
        content_type text,
        file_name text,
        file_size bigint,
        reason text,
        expires_at timestamptz NOT NULL,
        finalized_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `);
    await q.query(`CREATE INDEX video_uploads_submission_idx ON video_uploads (submission_id)`);
    // The daily limit counts a user's accepted videos by the time they were finalized.
    await q.query(`CREATE INDEX video_uploads_daily_idx ON video_uploads (user_id, finalized_at) WHERE status IN ('processing', 'ready')`);
    // The sweeper finds uploads that were never finished.
    await q.query(`CREATE INDEX video_uploads_expiry_idx ON video_uploads (expires_at) WHERE status = 'awaiting-upload'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE video_uploads');
    await q.query('DROP TABLE submissions');
  }
}
