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

  /** The views of the streamer's approved clips approved at or after `since` whose clipper holds `tier` (campaign_people's standing). */
  async approvedViewsSince(tx: EntityManager, streamerId: string, since: Date, tier: string): Promise<number> {
    const rows = (await tx.query(
      `SELECT COALESCE(sum(c.views), 0)::bigint AS views FROM campaign_clips c JOIN campaign_people p ON p.user_id = c.user_id
       WHERE c.streamer_id = $1 AND c.status = 'approved' AND c.approved_at >= $2 AND p.clipper_tier = $3`,
      [streamerId, since, tier],
    )) as { views: string }[];
    return Number(rows[0]?.views ?? 0);
  }

  /** The streamers the clipper's approved clips are tagged with that have a running campaign. */
  async streamersRunningWith(tx: EntityManager, userId: string): Promise<string[]> {
    const rows = (await tx.query(
      `SELECT DISTINCT c.streamer_id FROM campaign_clips c JOIN cpm_campaigns k ON k.streamer_id::text = c.streamer_id AND k.status = 'approved'
       WHERE c.user_id = $1 AND c.status = 'approved'`,
      [userId],
    )) as { streamer_id: string }[];
    return rows.map((r) => r.streamer_id);
  }
}
