import type { SubmissionSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** What an upsert did: whether the row took the event, and the streamer the clip was tagged with before. */
export interface ClipChange {
  applied: boolean;
  previousStreamerId: string | null;
}

/**
 * The clips read model (`campaign_clips`): each submission's streamer, status, views and approval time as
 * submissions' events told them; an event older than the row (by the submission's updatedAt) is dropped.
 * It is what a streamer's campaign counts its delivered views from.
 */
@Injectable()
export class ClipRepository {
  async upsert(tx: EntityManager, s: SubmissionSnapshot): Promise<ClipChange> {
    const before = (await tx.query('SELECT streamer_id, source_updated_at FROM campaign_clips WHERE submission_id = $1 FOR UPDATE', [
      s.id,
    ])) as {
      streamer_id: string | null;
      source_updated_at: Date;
    }[];
    const existing = before[0];
    if (existing && existing.source_updated_at.getTime() > new Date(s.updatedAt).getTime())
      return { applied: false, previousStreamerId: existing.streamer_id };
    await tx.query(
      `INSERT INTO campaign_clips (submission_id, user_id, streamer_id, status, views, approved_at, source_updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (submission_id) DO UPDATE SET user_id = excluded.user_id, streamer_id = excluded.streamer_id, status = excluded.status,
         views = excluded.views, approved_at = excluded.approved_at, source_updated_at = excluded.source_updated_at`,
      [
        s.id,
        s.userId,
        s.streamerId?.toLowerCase() ?? null,
        s.status,
        s.views,
        s.status === 'approved' ? (s.approvedAt ?? s.updatedAt) : null,
        s.updatedAt,
      ],
    );
    return { applied: true, previousStreamerId: existing?.streamer_id ?? null };
  }

  /** The views of the streamer's approved clips approved at or after `since`. */
  async approvedViewsSince(tx: EntityManager, streamerId: string, since: Date): Promise<number> {
    const rows = (await tx.query(
      `SELECT COALESCE(sum(views), 0)::bigint AS views FROM campaign_clips WHERE streamer_id = $1 AND status = 'approved' AND approved_at >= $2`,
      [streamerId, since],
    )) as { views: string }[];
    return Number(rows[0]?.views ?? 0);
  }
}
