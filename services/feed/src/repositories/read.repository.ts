import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ClipRow, PersonRow } from '../domain/read-rows.js';
import { LIVE_SCHEMA } from './read-model-schema.js';

/** A keyset position: the row's position time and id (tie-breaker). */
export interface Position {
  createdAt: Date;
  id: string;
}

/**
 * Every read of the read models. Each answer is one query on an index; the gateway caches what it
 * gets, so these run once per change, not once per visitor.
 */
@Injectable()
export class ReadRepository {
  /** The live schema by default; a replay's answers are compared by reading its fresh schema. */
  private schema = LIVE_SCHEMA;

  constructor(private readonly db: DataSource) {}

  /** A reader of another schema (the replay's check), sharing the connection pool. */
  forSchema(schema: string): ReadRepository {
    const other = new ReadRepository(this.db);
    other.schema = schema;
    return other;
  }

  private clipSelect(position: string): string {
    const s = this.schema;
    return `SELECT c.id, c.user_id, c.name, c.url, c.external_id, c.author_handle, c.additional_info, c.token_id, c.status, c.has_video,
        c.video_state, c.video_url, c.video_thumbnail_url, c.video_duration, c.video_aspect_ratio, c.playback_id, c.views, c.likes,
        c.retweets, c.replies, c.published_at, c.created_at, ${position} AS position, lc.like_count,
        p.id AS p_id, p.display_name AS p_display_name, p.first_name AS p_first_name, p.last_name AS p_last_name,
        p.profile_image_url AS p_profile_image_url, p.twitter_username AS p_twitter_username, p.current_tier AS p_current_tier,
        t.id AS t_id, t.name AS t_name, t.pump_fun_link AS t_pump_fun_link, t.streamer_id AS t_streamer_id,
        cp.id AS cp_id, cp.display_name AS cp_display_name, cp.profile_image_url AS cp_profile_image_url,
        cp.average_rating AS cp_average_rating, cp.total_hires AS cp_total_hires, cp.is_available AS cp_is_available
      FROM ${s}.clips c
      LEFT JOIN ${s}.clip_like_counts lc ON lc.clip_id = c.id
      LEFT JOIN ${s}.people p ON p.id = c.user_id
      LEFT JOIN ${s}.tokens t ON t.id = c.token_id
      LEFT JOIN ${s}.clipper_profiles cp ON cp.user_id = c.user_id`;
  }

  private personSelect(): string {
    const s = this.schema;
    return `SELECT p.id, p.role, p.twitter_username, p.display_name, p.first_name, p.last_name, p.profile_image_url, p.banner_image_url,
        p.current_tier, p.is_live, p.next_stream_time, p.streamer_multiplier, p.is_placeholder, p.total_clips, p.approved_clips,
        p.total_views, p.total_likes, p.tagged_clips, p.tagged_views, f.follower_count, st.clip_points,
        COALESCE(m.multiplier, p.streamer_multiplier) AS applied_multiplier
      FROM ${s}.people p
      LEFT JOIN ${s}.follower_counts f ON f.user_id = p.id
      LEFT JOIN ${s}.standings st ON st.user_id = p.id
      LEFT JOIN ${s}.streamer_multipliers m ON m.user_id = p.id`;
  }

  /** Visible clips, newest first, `limit + 1` of them after `after`. */
  feedClips(limit: number, after: Position | null): Promise<ClipRow[]> {
    return this.db.query(
      `${this.clipSelect('c.visible_since')}
       WHERE c.visible ${after ? 'AND (c.visible_since, c.id) < ($2, $3)' : ''}
       ORDER BY c.visible_since DESC, c.id DESC LIMIT $1`,
      after ? [limit + 1, after.createdAt, after.id] : [limit + 1],
    );
  }

  async likedAmong(viewerId: string, clipIds: string[]): Promise<string[]> {
    if (clipIds.length === 0) return [];
    const rows = (await this.db.query(
      `SELECT clip_id FROM ${this.schema}.viewer_likes WHERE user_id = $1 AND clip_id = ANY($2::uuid[]) AND liked`,
      [viewerId, clipIds],
    )) as Array<{ clip_id: string }>;
    return rows.map((r) => r.clip_id);
  }

  /** Approved clips: uploaded video first, then most views, then most recently approved. */
  leaderboardPosts(limit: number, offset = 0): Promise<ClipRow[]> {
    return this.db.query(
      `${this.clipSelect('c.created_at')} WHERE c.status = 'approved'
       ORDER BY c.has_video DESC, c.views DESC, c.approved_at DESC, c.id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
  }

  /** People with an approved clip, most views first. */
  leaderboardUsers(limit: number, offset = 0): Promise<PersonRow[]> {
    return this.db.query(
      `${this.personSelect()} WHERE p.approved_clips > 0 ORDER BY p.total_views DESC, p.approved_clips DESC, p.id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
  }

  async stats(): Promise<{ totalPosts: number; activeUsers: number; totalViews: number }> {
    const s = this.schema;
    const [row] = (await this.db.query(
      `SELECT (SELECT count(*) FROM ${s}.clips WHERE status = 'approved')::int AS posts,
              (SELECT count(*) FROM ${s}.people WHERE approved_clips > 0)::int AS users,
              (SELECT COALESCE(sum(total_views), 0) FROM ${s}.people) AS views`,
    )) as Array<{ posts: number; users: number; views: string }>;
    return { totalPosts: row!.posts, activeUsers: row!.users, totalViews: Number(row!.views) };
  }

  /** Clippers with the most approved clips (then views). */
  featuredClippers(limit: number): Promise<PersonRow[]> {
    return this.db.query(
      `${this.personSelect()} WHERE p.role = 'clipper' AND p.approved_clips > 0
       ORDER BY p.approved_clips DESC, p.total_views DESC, p.id LIMIT $1`,
      [limit],
    );
  }

  /** Streamers with the most followers (then tagged clips). */
  topStreamers(limit: number): Promise<PersonRow[]> {
    return this.db.query(
      `${this.personSelect()} WHERE p.role = 'streamer' AND p.claimed_by IS NULL
       ORDER BY COALESCE(f.follower_count, 0) DESC, p.tagged_clips DESC, p.created_at, p.id LIMIT $1`,
      [limit],
    );
  }

  /** Every person of a role (a claimed placeholder is the account that claimed it, not listed twice). */
  creators(role: string): Promise<PersonRow[]> {
    const clips = role === 'streamer' ? 'p.tagged_clips' : 'p.approved_clips';
    return this.db.query(`${this.personSelect()} WHERE p.role = $1 AND p.claimed_by IS NULL ORDER BY ${clips} DESC, p.created_at, p.id`, [
      role,
    ]);
  }

  async person(id: string): Promise<PersonRow | undefined> {
    const rows = (await this.db.query(`${this.personSelect()} WHERE p.id = $1`, [id])) as PersonRow[];
    return rows[0];
  }

  async isPerson(id: string): Promise<boolean> {
    const rows = (await this.db.query(`SELECT 1 FROM ${this.schema}.people WHERE id = $1`, [id])) as unknown[];
    return rows.length > 0;
  }

  /** A person's approved clips, newest first, `limit + 1` after `after`. */
  approvedClipsOf(userId: string, limit: number, after: Position | null): Promise<ClipRow[]> {
    return this.db.query(
      `${this.clipSelect('c.created_at')} WHERE c.user_id = $1 AND c.status = 'approved'
       ${after ? 'AND (c.created_at, c.id) < ($3, $4)' : ''} ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
      after ? [userId, limit + 1, after.createdAt, after.id] : [userId, limit + 1],
    );
  }

  /** How many clips {@link taggedClips} pages through: every page's total (one count on the tagged index). */
  async countTaggedClips(userId: string, everyStatus: boolean): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT count(*)::int AS n FROM ${this.schema}.clips c WHERE c.tagged_user_id = $1 ${everyStatus ? '' : "AND c.status = 'approved'"}`,
      [userId],
    )) as Array<{ n: number }>;
    return row!.n;
  }

  /** Clips tagged with a streamer (approved only unless `everyStatus`), newest first. */
  taggedClips(userId: string, everyStatus: boolean, limit: number, after: Position | null): Promise<ClipRow[]> {
    return this.db.query(
      `${this.clipSelect('c.created_at')} WHERE c.tagged_user_id = $1 ${everyStatus ? '' : "AND c.status = 'approved'"}
       ${after ? 'AND (c.created_at, c.id) < ($3, $4)' : ''} ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
      after ? [userId, limit + 1, after.createdAt, after.id] : [userId, limit + 1],
    );
  }
}
