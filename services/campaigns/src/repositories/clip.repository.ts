import type { SubmissionSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { clipUnderReview, type CountingWindow } from '../domain/campaign.js';

/** What an upsert did: whether the row took the event, and the streamer the clip was tagged with before. */
export interface ClipChange {
  applied: boolean;
  previousStreamerId: string | null;
}

/** A clip a campaign counts, as the read model holds it. */
export interface CountedClip {
  submissionId: string;
  clipperId: string;
  postUrl: string | null;
  views: number;
  underReview: boolean;
  approvedAt: Date;
}

/** Where a page of counted clips ended: the last one's approval time and submission id (the tie-breaker). */
export interface CountedClipPosition {
  approvedAt: Date;
  submissionId: string;
}

interface CountedClipRecord {
  submission_id: string;
  user_id: string;
  post_url: string | null;
  views: string;
  under_review: boolean;
  approved_at: Date;
}

/**
 * The clips read model (`campaign_clips`): each submission's streamer, status, views, approval time, post and
 * whether it is under review, as submissions' events told them; an event older than the row (by the
 * submission's updatedAt) is dropped. It is what a streamer's campaign counts its delivered views from.
 */
@Injectable()
export class ClipRepository {
  constructor(private readonly dataSource: DataSource) {}

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
      `INSERT INTO campaign_clips (submission_id, user_id, streamer_id, status, views, approved_at, source_updated_at, under_review, post_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (submission_id) DO UPDATE SET user_id = excluded.user_id, streamer_id = excluded.streamer_id, status = excluded.status,
         views = excluded.views, approved_at = excluded.approved_at, source_updated_at = excluded.source_updated_at,
         under_review = excluded.under_review, post_url = excluded.post_url`,
      [
        s.id,
        s.userId,
        s.streamerId?.toLowerCase() ?? null,
        s.status,
        s.views,
        s.status === 'approved' ? (s.approvedAt ?? s.updatedAt) : null,
        s.updatedAt,
        clipUnderReview(s),
        s.url || null,
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

  /**
   * Per campaign, the views of the clips it counts (its streamer's, approved within its window, by a clipper
   * holding `tier`) that are not under review: one query for a page of campaigns. A campaign with none is absent.
   */
  async viewsNotUnderReview(
    windows: ReadonlyArray<CountingWindow & { campaignId: string; streamerId: string }>,
    tier: string,
  ): Promise<Map<string, number>> {
    if (windows.length === 0) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT w.id, COALESCE(sum(c.views), 0)::bigint AS views
       FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS w(id, streamer_id, since, until)
       JOIN campaign_clips c ON c.streamer_id = w.streamer_id AND c.status = 'approved' AND NOT c.under_review
         AND c.approved_at >= w.since AND (w.until IS NULL OR c.approved_at <= w.until)
       JOIN campaign_people p ON p.user_id = c.user_id AND p.clipper_tier = $5
       GROUP BY w.id`,
      [
        windows.map((w) => w.campaignId),
        windows.map((w) => w.streamerId.toLowerCase()),
        windows.map((w) => w.since),
        windows.map((w) => w.until),
        tier,
      ],
    )) as { id: string; views: string }[];
    return new Map(rows.map((r) => [r.id, Number(r.views)]));
  }

  /**
   * `limit` of the clips a campaign counts (the streamer's approved clips approved within `window` by a
   * clipper holding `tier`), the latest approval first, strictly after `after` in that order.
   */
  async countedPage(
    streamerId: string,
    window: CountingWindow,
    tier: string,
    limit: number,
    after: CountedClipPosition | undefined,
  ): Promise<CountedClip[]> {
    const params: unknown[] = [streamerId.toLowerCase(), window.since, window.until, tier];
    const keyset = after
      ? `AND (c.approved_at, c.submission_id) < ($${params.push(after.approvedAt)}, $${params.push(after.submissionId)})`
      : '';
    const rows = (await this.dataSource.query(
      `SELECT c.submission_id, c.user_id, c.post_url, c.views, c.under_review, c.approved_at
       FROM campaign_clips c JOIN campaign_people p ON p.user_id = c.user_id AND p.clipper_tier = $4
       WHERE c.streamer_id = $1 AND c.status = 'approved' AND c.approved_at >= $2 AND ($3::timestamptz IS NULL OR c.approved_at <= $3) ${keyset}
       ORDER BY c.approved_at DESC, c.submission_id DESC LIMIT ${Number(limit)}`,
      params,
    )) as CountedClipRecord[];
    return rows.map((r) => ({
      submissionId: r.submission_id,
      clipperId: r.user_id,
      postUrl: r.post_url,
      views: Number(r.views),
      underReview: r.under_review,
      approvedAt: r.approved_at,
    }));
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
