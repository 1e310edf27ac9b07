import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Social's tables: what it owns (followers, video_likes, live_states) and the two read models it keeps
 * from other services' events (people from identity, clips from submissions), each row carrying the
 * source's updated_at so an older event never overwrites a newer one.
 */
export class CreateSocialTables1764500000000 implements MigrationInterface {
  name = 'CreateSocialTables1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE people (
        id uuid PRIMARY KEY,
        role text NOT NULL CHECK (role IN ('user', 'clipper', 'streamer', 'admin')),
        display_name text,
        twitter_username text,
        profile_image_url text,
        source_updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE followers (
        id uuid PRIMARY KEY,
        follower_id uuid NOT NULL,
        following_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT followers_pair_key UNIQUE (follower_id, following_id),
        CONSTRAINT followers_not_self CHECK (follower_id <> following_id)
      )`);
    await q.query('CREATE INDEX followers_following_idx ON followers (following_id, created_at DESC, id DESC)');
    await q.query(`
      CREATE TABLE clips (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        added_to_feed boolean NOT NULL,
        like_count integer NOT NULL DEFAULT 0 CHECK (like_count >= 0),
        source_updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE video_likes (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        submission_id uuid NOT NULL REFERENCES clips (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT video_likes_pair_key UNIQUE (user_id, submission_id)
      )`);
    await q.query('CREATE SEQUENCE live_period_seq');
    await q.query(`
      CREATE TABLE live_states (
        user_id uuid PRIMARY KEY,
        is_live boolean NOT NULL DEFAULT false,
        live_period bigint,
        live_since timestamptz,
        live_revision integer NOT NULL DEFAULT 0,
        next_stream_time timestamptz,
        stream_time_revision integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT live_states_period_check CHECK (is_live = (live_period IS NOT NULL) AND is_live = (live_since IS NOT NULL))
      )`);
    await q.query('CREATE INDEX live_states_live_idx ON live_states (live_since DESC) WHERE is_live');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE live_states');
    await q.query('DROP SEQUENCE live_period_seq');
    await q.query('DROP TABLE video_likes');
    await q.query('DROP TABLE clips');
    await q.query('DROP TABLE followers');
    await q.query('DROP TABLE people');
  }
}
