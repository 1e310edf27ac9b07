import { randomUUID } from 'node:crypto';
import type { FeedPlacement, SubmissionSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A clip as social keeps it: its owner, what decides whether it is in the feed, and its likes. */
export interface ClipRow extends FeedPlacement {
  id: string;
  ownerId: string;
  likeCount: number;
}

interface ClipRecord {
  id: string;
  owner_id: string;
  status: ClipRow['status'];
  added_to_feed: boolean;
  video_state: ClipRow['videoState'];
  video_url: string | null;
  like_count: number;
}

const toClip = (r: ClipRecord): ClipRow => ({
  id: r.id,
  ownerId: r.owner_id,
  status: r.status,
  addedToFeed: r.added_to_feed,
  videoState: r.video_state,
  videoUrl: r.video_url,
  likeCount: r.like_count,
});

/** The clips read model (submissions, as their events told them) and the likes on them: `clips`, `video_likes`. */
@Injectable()
export class ClipRepository {
  /** The clip as the read model holds it (no lock: the pair row's foreign key keeps the clip from going away). */
  async find(tx: EntityManager, id: string): Promise<ClipRow | undefined> {
    const rows = (await tx.query(
      'SELECT id, owner_id, status, added_to_feed, video_state, video_url, like_count FROM clips WHERE id = $1',
      [id],
    )) as ClipRecord[];
    return rows[0] ? toClip(rows[0]) : undefined;
  }

  /** The count as committed (a repeated like or unlike answers it). */
  async likeCount(tx: EntityManager, id: string): Promise<number> {
    const rows = (await tx.query('SELECT like_count FROM clips WHERE id = $1', [id])) as { like_count: number }[];
    return rows[0]?.like_count ?? 0;
  }

  /** Adds the like; false when the user had liked it already. */
  async addLike(tx: EntityManager, userId: string, clipId: string, at: Date): Promise<boolean> {
    const rows = (await tx.query(
      `INSERT INTO video_likes (id, user_id, submission_id, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT video_likes_pair_key DO NOTHING RETURNING id`,
      [randomUUID(), userId, clipId, at],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Removes the like; false when there was none. */
  async removeLike(tx: EntityManager, userId: string, clipId: string): Promise<boolean> {
    const [, affected] = (await tx.query('DELETE FROM video_likes WHERE user_id = $1 AND submission_id = $2', [userId, clipId])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }

  /** Moves the clip's count by `delta`, locking its row until the transaction ends; the new count. */
  async addToCount(tx: EntityManager, clipId: string, delta: 1 | -1): Promise<number> {
    const rows = (await tx.query('UPDATE clips SET like_count = like_count + $2 WHERE id = $1 RETURNING like_count', [clipId, delta])) as [
      { like_count: number }[],
      number,
    ];
    return rows[0][0]!.like_count;
  }

  async hasLiked(tx: EntityManager, userId: string, clipId: string): Promise<boolean> {
    const rows = (await tx.query('SELECT 1 FROM video_likes WHERE user_id = $1 AND submission_id = $2', [userId, clipId])) as unknown[];
    return rows.length > 0;
  }

  /** Applies a submission's state from its event unless the row holds a newer one; the like count is social's and stays. */
  async upsertFromSnapshot(tx: EntityManager, s: SubmissionSnapshot): Promise<boolean> {
    const rows = (await tx.query(
      `INSERT INTO clips (id, owner_id, status, added_to_feed, video_state, video_url, source_updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, added_to_feed = excluded.added_to_feed,
         video_state = excluded.video_state, video_url = excluded.video_url, source_updated_at = excluded.source_updated_at
       WHERE clips.source_updated_at < excluded.source_updated_at
       RETURNING id`,
      [s.id, s.userId, s.status, s.addedToFeed, s.videoState, s.videoUrl, new Date(s.updatedAt)],
    )) as unknown[];
    return rows.length > 0;
  }
}
