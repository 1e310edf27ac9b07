import { isInFeed, type ClipperProfileSnapshot, type SubmissionSnapshot, type TokenSnapshot, type UserSnapshot } from '@clipit/contracts';
import type { EntityManager } from 'typeorm';
import { taggedStreamerOf } from '../domain/clip-rules.js';
import { checkSchemaName, SWAP_LOCK_KEY } from './read-model-schema.js';

/** A social count change: the count after it, and when it happened (the latest wins). */
export interface CountChange {
  id: string;
  count: number;
  at: string;
}

/**
 * Every write to the read models, in one schema: the live one (`rm`) for the consumer, a fresh one for a
 * replay. Each write is idempotent and tolerates events out of order: a snapshot is applied only when it
 * is at least as new as the row, a count only when its change is at least as recent, and a person's
 * figures are recomputed from the clip rows, never adjusted by deltas. Writes about a person first take
 * a transaction lock on that person's id, so replicas applying events side by side never compute
 * figures from a snapshot that misses the other's clip.
 */
export class ProjectionStore {
  private readonly s: string;
  private readonly live: boolean;

  /** `live`: written by consumers side by side and swapped by a replay, so writes take locks. */
  constructor(schema: string, opts: { live: boolean } = { live: true }) {
    this.s = checkSchemaName(schema);
    this.live = opts.live;
  }

  /** Live writes hold the swap lock shared: a replay's swap waits for them, and they for it. */
  private async holdSwapLock(tx: EntityManager): Promise<void> {
    if (this.live) await tx.query('SELECT pg_advisory_xact_lock_shared($1)', [SWAP_LOCK_KEY]);
  }

  /** Live figure updates are serialized per person across transactions (ids sorted: no deadlock). */
  private async lockPersons(tx: EntityManager, ids: Array<string | null>): Promise<void> {
    if (!this.live) return;
    const unique = [...new Set(ids.filter((id): id is string => id !== null))].sort();
    for (const id of unique) await tx.query(`SELECT pg_advisory_xact_lock(hashtext('feed:person:' || $1))`, [id]);
  }

  /** The swap lock, then the people's locks. */
  private async lockPeople(tx: EntityManager, ids: Array<string | null>): Promise<void> {
    await this.holdSwapLock(tx);
    await this.lockPersons(tx, ids);
  }

  async applyUser(tx: EntityManager, user: UserSnapshot): Promise<void> {
    await this.lockPeople(tx, [user.id]);
    const rows = (await tx.query(
      `INSERT INTO ${this.s}.people AS p (id, role, twitter_username, display_name, first_name, last_name, profile_image_url, banner_image_url,
         current_tier, is_live, next_stream_time, streamer_multiplier, is_placeholder, claimed_by, created_at, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (id) DO UPDATE SET role = EXCLUDED.role, twitter_username = EXCLUDED.twitter_username, display_name = EXCLUDED.display_name,
         first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, profile_image_url = EXCLUDED.profile_image_url,
         banner_image_url = EXCLUDED.banner_image_url, current_tier = EXCLUDED.current_tier, is_live = EXCLUDED.is_live,
         next_stream_time = EXCLUDED.next_stream_time, streamer_multiplier = EXCLUDED.streamer_multiplier,
         is_placeholder = EXCLUDED.is_placeholder, claimed_by = EXCLUDED.claimed_by, source_updated_at = EXCLUDED.source_updated_at
       WHERE p.source_updated_at <= EXCLUDED.source_updated_at
       RETURNING (xmax = 0) AS inserted`,
      [
        user.id,
        user.role,
        user.twitterUsername,
        user.displayName,
        user.firstName,
        user.lastName,
        user.profileImageUrl,
        user.bannerImageUrl,
        user.currentTier,
        user.isLive === 'true',
        user.nextStreamTime,
        user.streamerMultiplier,
        user.isPlaceholder === 'true',
        user.claimedBy,
        user.createdAt,
        user.updatedAt,
      ],
    )) as Array<{ inserted: boolean }>;
    // A person heard of after their clips: their figures come from the clips already here.
    if (rows[0]?.inserted && this.live) await this.recomputeFigures(tx, user.id);
  }

  async applyToken(tx: EntityManager, token: TokenSnapshot): Promise<void> {
    await this.lockPeople(tx, [token.streamerId]);
    const rows = (await tx.query(
      `INSERT INTO ${this.s}.tokens AS t (id, streamer_id, name, pump_fun_link, description, is_active, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET streamer_id = EXCLUDED.streamer_id, name = EXCLUDED.name, pump_fun_link = EXCLUDED.pump_fun_link,
         description = EXCLUDED.description, is_active = EXCLUDED.is_active, source_updated_at = EXCLUDED.source_updated_at
       WHERE t.source_updated_at <= EXCLUDED.source_updated_at
       RETURNING id`,
      [token.id, token.streamerId, token.name, token.pumpFunLink, token.description, token.isActive === 'true', token.updatedAt],
    )) as unknown[];
    if (rows.length === 0) return;
    // Clips tagged through this token before it was heard of now count for its streamer.
    const moved = (await tx.query(
      `UPDATE ${this.s}.clips SET tagged_user_id = $2 WHERE token_id = $1 AND streamer_id IS NULL AND tagged_user_id IS DISTINCT FROM $2 RETURNING id`,
      [token.id, token.streamerId],
    )) as [unknown[], number] | unknown[];
    if (affected(moved) > 0 && this.live) await this.recomputeFigures(tx, token.streamerId);
  }

  async applySubmission(tx: EntityManager, submission: SubmissionSnapshot): Promise<void> {
    await this.holdSwapLock(tx); // before the first read
    const tokenStreamer = submission.tokenId ? await this.tokenStreamer(tx, submission.tokenId) : null;
    const tagged = taggedStreamerOf(submission, tokenStreamer);
    await this.lockPersons(tx, [submission.userId, tagged]);
    const visible = isInFeed(submission);
    const rows = (await tx.query(
      `INSERT INTO ${this.s}.clips AS c (id, user_id, name, url, external_id, author_handle, additional_info, token_id, streamer_id, tagged_user_id,
         status, added_to_feed, video_state, has_video, video_url, video_thumbnail_url, video_duration, video_aspect_ratio, playback_id,
         views, likes, retweets, replies, published_at, approved_at, created_at, source_updated_at, visible, visible_since)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28,
         CASE WHEN $28 THEN $27::timestamptz END)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url, external_id = EXCLUDED.external_id,
         author_handle = EXCLUDED.author_handle, additional_info = EXCLUDED.additional_info, token_id = EXCLUDED.token_id,
         streamer_id = EXCLUDED.streamer_id, tagged_user_id = EXCLUDED.tagged_user_id, status = EXCLUDED.status,
         added_to_feed = EXCLUDED.added_to_feed, video_state = EXCLUDED.video_state, has_video = EXCLUDED.has_video,
         video_url = EXCLUDED.video_url, video_thumbnail_url = EXCLUDED.video_thumbnail_url, video_duration = EXCLUDED.video_duration,
         video_aspect_ratio = EXCLUDED.video_aspect_ratio, playback_id = EXCLUDED.playback_id, views = EXCLUDED.views,
         likes = EXCLUDED.likes, retweets = EXCLUDED.retweets, replies = EXCLUDED.replies, published_at = EXCLUDED.published_at,
         approved_at = EXCLUDED.approved_at, source_updated_at = EXCLUDED.source_updated_at, visible = EXCLUDED.visible,
         -- A clip keeps its place while it stays visible; one that becomes visible again goes to the top.
         visible_since = CASE WHEN NOT EXCLUDED.visible THEN NULL WHEN c.visible THEN c.visible_since ELSE EXCLUDED.visible_since END
       WHERE c.source_updated_at <= EXCLUDED.source_updated_at
       RETURNING id`,
      [
        submission.id,
        submission.userId,
        submission.name,
        submission.url,
        submission.externalId,
        submission.authorHandle,
        submission.additionalInfo,
        submission.tokenId,
        submission.streamerId,
        tagged,
        submission.status,
        submission.addedToFeed,
        submission.videoState,
        submission.hasVideo,
        submission.videoUrl,
        submission.videoThumbnailUrl,
        submission.videoDuration,
        submission.videoAspectRatio,
        submission.playbackId,
        submission.views,
        submission.likes,
        submission.retweets,
        submission.replies,
        submission.publishedAt,
        submission.approvedAt,
        submission.createdAt,
        submission.updatedAt,
        visible,
      ],
    )) as unknown[];
    if (rows.length === 0) return; // older than what is here
    // A replay computes every figure once at its end (recomputeAllFigures) instead of per clip.
    if (!this.live) return;
    await this.recomputeFigures(tx, submission.userId);
    if (tagged) await this.recomputeFigures(tx, tagged);
  }

  /** A like change: the clip's count and the viewer's pair, in one statement (one round trip). */
  async applyLike(tx: EntityManager, viewerId: string, clipId: string, liked: boolean, likeCount: number, at: string): Promise<void> {
    await this.holdSwapLock(tx);
    await tx.query(
      `WITH counted AS (
         INSERT INTO ${this.s}.clip_like_counts AS l (clip_id, like_count, at) VALUES ($2, $4, $5)
         ON CONFLICT (clip_id) DO UPDATE SET like_count = EXCLUDED.like_count, at = EXCLUDED.at WHERE l.at <= EXCLUDED.at
       )
       INSERT INTO ${this.s}.viewer_likes AS v (user_id, clip_id, liked, at) VALUES ($1, $2, $3, $5)
       ON CONFLICT (user_id, clip_id) DO UPDATE SET liked = EXCLUDED.liked, at = EXCLUDED.at WHERE v.at <= EXCLUDED.at`,
      [viewerId, clipId, liked, likeCount, at],
    );
  }

  /**
   * Every person's figures from the clip rows in one statement: a replay's last step, the same
   * figures recomputeFigures gives one person (people without clips keep zeros).
   */
  async recomputeAllFigures(tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE ${this.s}.people p SET total_clips = own.total, approved_clips = own.approved, total_views = own.views, total_likes = own.likes
       FROM (SELECT user_id, count(*)::int AS total, (count(*) FILTER (WHERE status = 'approved'))::int AS approved,
               COALESCE(sum(views) FILTER (WHERE status = 'approved'), 0) AS views, COALESCE(sum(likes) FILTER (WHERE status = 'approved'), 0) AS likes
             FROM ${this.s}.clips GROUP BY user_id) own
       WHERE p.id = own.user_id`,
    );
    await tx.query(
      `UPDATE ${this.s}.people p SET tagged_clips = tagged.approved, tagged_views = tagged.views
       FROM (SELECT tagged_user_id, (count(*) FILTER (WHERE status = 'approved'))::int AS approved, COALESCE(sum(views) FILTER (WHERE status = 'approved'), 0) AS views
             FROM ${this.s}.clips WHERE tagged_user_id IS NOT NULL GROUP BY tagged_user_id) tagged
       WHERE p.id = tagged.tagged_user_id`,
    );
  }

  async applyFollowerCount(tx: EntityManager, change: CountChange): Promise<void> {
    await this.holdSwapLock(tx);
    await tx.query(
      `INSERT INTO ${this.s}.follower_counts AS f (user_id, follower_count, at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET follower_count = EXCLUDED.follower_count, at = EXCLUDED.at WHERE f.at <= EXCLUDED.at`,
      [change.id, change.count, change.at],
    );
  }

  /** A clipper's clip points (rewards.standing-changed), unless a later revision is held. */
  async applyStanding(tx: EntityManager, standing: { userId: string; clipPoints: number; revision: number }): Promise<void> {
    await this.holdSwapLock(tx);
    await tx.query(
      `INSERT INTO ${this.s}.standings AS t (user_id, clip_points, revision) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET clip_points = EXCLUDED.clip_points, revision = EXCLUDED.revision WHERE t.revision < EXCLUDED.revision`,
      [standing.userId, standing.clipPoints, standing.revision],
    );
  }

  /** The multiplier rewards applies to a streamer (rewards.streamer-multiplier-changed), unless a later revision is held. */
  async applyStreamerMultiplier(tx: EntityManager, change: { userId: string; multiplier: number; revision: number }): Promise<void> {
    await this.holdSwapLock(tx);
    await tx.query(
      `INSERT INTO ${this.s}.streamer_multipliers AS m (user_id, multiplier, revision) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET multiplier = EXCLUDED.multiplier, revision = EXCLUDED.revision WHERE m.revision < EXCLUDED.revision`,
      [change.userId, change.multiplier, change.revision],
    );
  }

  /** A clipper's hiring profile (clipper-profile.changed), unless a later revision is held. */
  async applyClipperProfile(tx: EntityManager, profile: ClipperProfileSnapshot, revision: number): Promise<void> {
    await this.holdSwapLock(tx);
    await tx.query(
      `INSERT INTO ${this.s}.clipper_profiles AS c (user_id, id, display_name, profile_image_url, average_rating, total_reviews, total_hires,
         is_available, revision)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (user_id) DO UPDATE SET id = EXCLUDED.id, display_name = EXCLUDED.display_name, profile_image_url = EXCLUDED.profile_image_url,
         average_rating = EXCLUDED.average_rating, total_reviews = EXCLUDED.total_reviews, total_hires = EXCLUDED.total_hires,
         is_available = EXCLUDED.is_available, revision = EXCLUDED.revision
       WHERE c.revision < EXCLUDED.revision`,
      [
        profile.userId,
        profile.id,
        profile.displayName,
        profile.profileImageUrl,
        profile.averageRating,
        profile.totalReviews,
        profile.totalHires,
        profile.isAvailable === 'true',
        revision,
      ],
    );
  }

  private async tokenStreamer(tx: EntityManager, tokenId: string): Promise<string | null> {
    const rows = (await tx.query(`SELECT streamer_id FROM ${this.s}.tokens WHERE id = $1`, [tokenId])) as Array<{ streamer_id: string }>;
    return rows[0]?.streamer_id ?? null;
  }

  /**
   * A person's figures from the clip rows: as a clipper (all their clips; approved ones' count, views
   * and likes) and as a streamer (approved clips tagged with them and their views). Nothing when the
   * person is not here yet: their own event recomputes on arrival.
   */
  private async recomputeFigures(tx: EntityManager, personId: string): Promise<void> {
    await tx.query(
      `UPDATE ${this.s}.people p SET total_clips = own.total, approved_clips = own.approved, total_views = own.views, total_likes = own.likes,
         tagged_clips = tagged.approved, tagged_views = tagged.views
       FROM (SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'approved'))::int AS approved,
               COALESCE(sum(views) FILTER (WHERE status = 'approved'), 0) AS views, COALESCE(sum(likes) FILTER (WHERE status = 'approved'), 0) AS likes
             FROM ${this.s}.clips WHERE user_id = $1) own,
            (SELECT (count(*) FILTER (WHERE status = 'approved'))::int AS approved, COALESCE(sum(views) FILTER (WHERE status = 'approved'), 0) AS views
             FROM ${this.s}.clips WHERE tagged_user_id = $1) tagged
       WHERE p.id = $1`,
      [personId],
    );
  }
}

/** Rows an UPDATE … RETURNING touched, whatever shape the driver handed back. */
function affected(result: [unknown[], number] | unknown[]): number {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[1];
  return result.length;
}
