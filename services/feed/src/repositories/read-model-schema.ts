/**
 * The read models' tables, created in one Postgres schema. The live models are in `rm`; a replay builds
 * a fresh copy in another schema from the start of the event stream and swaps it in (ADR 0022). A
 * change to these tables is a change here plus a replay, never an ALTER of the live copy.
 */
export const LIVE_SCHEMA = 'rm';

/**
 * The advisory lock a replay's swap takes exclusively and every live write takes shared: while the
 * rebuilt models go live, no event is applied to the ones going away.
 */
export const SWAP_LOCK_KEY = 7_364_220_014;

/** A schema name this code made (letters, digits, underscores): safe to put in SQL text. */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`not a read-model schema name: ${schema}`);
  return schema;
}

/** Every statement that creates the read models in `schema` (which must not exist yet). */
export function readModelDdl(schema: string): string[] {
  return [...baseReadModelDdl(schema), ...rewardsAndHiringDdl(schema)];
}

/**
 * The read models of rewards' and campaigns' events (issue 33), each its own table keyed by the person,
 * so an event that arrives before the person's own is kept and shows once they do. Created with IF NOT
 * EXISTS: a fresh schema takes them with the rest, and migration AddRewardsAndHiringReadModels adds them
 * to a live schema made before them (new tables only, no ALTER; a replay with --swap then fills them
 * from the events already in the stream).
 */
export function rewardsAndHiringDdl(schema: string): string[] {
  const s = checkSchemaName(schema);
  return [
    // rewards.standing-changed: a clipper's clip points; the highest revision wins.
    `CREATE TABLE IF NOT EXISTS ${s}.standings (
      user_id uuid PRIMARY KEY,
      clip_points bigint NOT NULL,
      revision integer NOT NULL
    )`,
    // rewards.streamer-multiplier-changed: the multiplier rewards applies to a streamer's tagged clips.
    `CREATE TABLE IF NOT EXISTS ${s}.streamer_multipliers (
      user_id uuid PRIMARY KEY,
      multiplier numeric(3,2) NOT NULL,
      revision integer NOT NULL
    )`,
    // clipper-profile.changed: the hiring profile shown on a clipper's clips (spec 01 §3 clipperProfile).
    `CREATE TABLE IF NOT EXISTS ${s}.clipper_profiles (
      user_id uuid PRIMARY KEY,
      id uuid NOT NULL,
      display_name text NOT NULL,
      profile_image_url text,
      average_rating numeric(3,2) NOT NULL,
      total_reviews integer NOT NULL,
      total_hires integer NOT NULL,
      is_available boolean NOT NULL,
      revision integer NOT NULL
    )`,
  ];
}

/** The first read models (identity's, submissions' and social's events). */
function baseReadModelDdl(schema: string): string[] {
  const s = checkSchemaName(schema);
  return [
    `CREATE SCHEMA ${s}`,
    // identity's users (user.registered, user.updated), with the figures kept from the clips below.
    `CREATE TABLE ${s}.people (
      id uuid PRIMARY KEY,
      role text NOT NULL,
      twitter_username text,
      display_name text,
      first_name text,
      last_name text,
      profile_image_url text,
      banner_image_url text,
      current_tier integer NOT NULL DEFAULT 1,
      is_live boolean NOT NULL DEFAULT false,
      next_stream_time text,
      streamer_multiplier numeric(3,2) NOT NULL DEFAULT 1.00,
      is_placeholder boolean NOT NULL DEFAULT false,
      claimed_by uuid,
      created_at timestamptz NOT NULL,
      source_updated_at timestamptz NOT NULL,
      total_clips integer NOT NULL DEFAULT 0,
      approved_clips integer NOT NULL DEFAULT 0,
      total_views bigint NOT NULL DEFAULT 0,
      total_likes bigint NOT NULL DEFAULT 0,
      tagged_clips integer NOT NULL DEFAULT 0,
      tagged_views bigint NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX people_role_idx ON ${s}.people (role, approved_clips DESC, total_views DESC, id)`,
    // identity's tokens (token.changed).
    `CREATE TABLE ${s}.tokens (
      id uuid PRIMARY KEY,
      streamer_id uuid NOT NULL,
      name text NOT NULL,
      pump_fun_link text,
      description text,
      is_active boolean NOT NULL,
      source_updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX tokens_streamer_idx ON ${s}.tokens (streamer_id)`,
    // submissions' snapshots (every submission.* event). tagged_user_id: the tagged streamer, named
    // directly or through the token. visible: approved, in the feed and playable; visible_since orders the feed.
    `CREATE TABLE ${s}.clips (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      name text NOT NULL,
      url text NOT NULL,
      external_id text NOT NULL,
      author_handle text NOT NULL,
      additional_info text,
      token_id uuid,
      streamer_id uuid,
      tagged_user_id uuid,
      status text NOT NULL,
      added_to_feed boolean NOT NULL,
      video_state text NOT NULL,
      has_video boolean NOT NULL,
      video_url text,
      video_thumbnail_url text,
      video_duration double precision,
      video_aspect_ratio text,
      playback_id text,
      views bigint NOT NULL DEFAULT 0,
      likes bigint NOT NULL DEFAULT 0,
      retweets bigint NOT NULL DEFAULT 0,
      replies bigint NOT NULL DEFAULT 0,
      published_at timestamptz,
      approved_at timestamptz,
      created_at timestamptz NOT NULL,
      source_updated_at timestamptz NOT NULL,
      visible boolean NOT NULL,
      visible_since timestamptz
    )`,
    `CREATE INDEX clips_feed_idx ON ${s}.clips (visible_since DESC, id DESC) WHERE visible`,
    `CREATE INDEX clips_leaderboard_idx ON ${s}.clips (has_video DESC, views DESC, approved_at DESC, id DESC) WHERE status = 'approved'`,
    `CREATE INDEX clips_user_idx ON ${s}.clips (user_id, created_at DESC, id DESC)`,
    `CREATE INDEX clips_tagged_idx ON ${s}.clips (tagged_user_id, created_at DESC, id DESC) WHERE tagged_user_id IS NOT NULL`,
    `CREATE INDEX clips_token_idx ON ${s}.clips (token_id) WHERE token_id IS NOT NULL`,
    // social's counts: each event carries the count after its change; the latest event wins.
    `CREATE TABLE ${s}.clip_like_counts (
      clip_id uuid PRIMARY KEY,
      like_count integer NOT NULL,
      at timestamptz NOT NULL
    )`,
    `CREATE TABLE ${s}.follower_counts (
      user_id uuid PRIMARY KEY,
      follower_count integer NOT NULL,
      at timestamptz NOT NULL
    )`,
    // Who likes what (likedByCurrentUser); a later event about the same pair wins.
    `CREATE TABLE ${s}.viewer_likes (
      user_id uuid NOT NULL,
      clip_id uuid NOT NULL,
      liked boolean NOT NULL,
      at timestamptz NOT NULL,
      PRIMARY KEY (user_id, clip_id)
    )`,
  ];
}
