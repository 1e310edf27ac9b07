import type { SubmissionSnapshot, SubmissionStatus } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ApprovedClip, ClipperFacts } from '../domain/rules.js';

export interface RecentSubmissionRow {
  id: string;
  name: string;
  platform: string;
  url: string;
  views: number;
  status: SubmissionStatus;
  rejectedReason: string | null;
  createdAt: Date;
}

/** What an upsert did: whether the row took the event, and whether the submission just became approved. */
export interface SubmissionChange {
  applied: boolean;
  newlyApproved: boolean;
}

interface FactsRecord {
  user_id: string;
  status: SubmissionStatus;
  approved_at: Date | null;
  views: string;
  streamer_multiplier: string | null;
}

/** The facts of each of `userIds` (those without submissions are absent), from rows ordered by user. */
function collectFacts(rows: readonly FactsRecord[]): Map<string, ClipperFacts> {
  const facts = new Map<string, { approved: ApprovedClip[]; rejectedCount: number }>();
  for (const r of rows) {
    let f = facts.get(r.user_id);
    if (!f) facts.set(r.user_id, (f = { approved: [], rejectedCount: 0 }));
    if (r.status === 'approved')
      f.approved.push({
        approvedAt: r.approved_at ?? new Date(0),
        views: Number(r.views),
        streamerMultiplier: Number(r.streamer_multiplier ?? 1),
      });
    else if (r.status === 'rejected') f.rejectedCount += 1;
  }
  return facts;
}

/**
 * The submissions read model (`submissions`): each clipper's posts as submissions' events told them, with
 * the tagged streamer's multiplier captured when the post was approved (ADR 0025: a clip keeps the
 * multiplier of its approval).
 */
@Injectable()
export class SubmissionRepository {
  /**
   * Applies a submission's state from its event unless the row holds a newer one. `multiplierAtApproval`
   * is stored only when this change makes the submission approved.
   */
  async upsert(tx: EntityManager, s: SubmissionSnapshot, multiplierAtApproval: () => Promise<number>): Promise<SubmissionChange> {
    const before = (await tx.query('SELECT status, source_updated_at FROM submissions WHERE id = $1 FOR UPDATE', [s.id])) as {
      status: SubmissionStatus;
      source_updated_at: Date;
    }[];
    const existing = before[0];
    if (existing && existing.source_updated_at.getTime() > new Date(s.updatedAt).getTime()) return { applied: false, newlyApproved: false };
    const newlyApproved = s.status === 'approved' && existing?.status !== 'approved';
    const multiplier = newlyApproved ? await multiplierAtApproval() : null;
    await tx.query(
      `INSERT INTO submissions (id, user_id, streamer_id, name, url, platform, status, rejected_reason, views, approved_at, streamer_multiplier, created_at, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (id) DO UPDATE SET streamer_id = excluded.streamer_id, name = excluded.name, url = excluded.url, platform = excluded.platform,
         status = excluded.status, rejected_reason = excluded.rejected_reason, views = excluded.views, approved_at = excluded.approved_at,
         streamer_multiplier = COALESCE(submissions.streamer_multiplier, excluded.streamer_multiplier), source_updated_at = excluded.source_updated_at`,
      [
        s.id,
        s.userId,
        s.streamerId,
        s.name,
        s.url,
        s.platform,
        s.status,
        s.rejectedReason,
        s.views,
        s.status === 'approved' ? (s.approvedAt ?? s.updatedAt) : null,
        multiplier,
        s.createdAt,
        s.updatedAt,
      ],
    );
    return { applied: true, newlyApproved };
  }

  /** One clipper's facts (approved clips with views and multipliers, rejected count). */
  async factsOf(tx: EntityManager, userId: string): Promise<ClipperFacts> {
    const rows = (await tx.query(
      "SELECT user_id, status, approved_at, views, streamer_multiplier FROM submissions WHERE user_id = $1 AND status <> 'pending'",
      [userId],
    )) as FactsRecord[];
    return collectFacts(rows).get(userId) ?? { approved: [], rejectedCount: 0 };
  }

  /** The facts of many clippers in one read (the recompute of every standing walks clippers in batches). */
  async factsOfMany(tx: EntityManager, userIds: readonly string[]): Promise<Map<string, ClipperFacts>> {
    if (userIds.length === 0) return new Map();
    const rows = (await tx.query(
      "SELECT user_id, status, approved_at, views, streamer_multiplier FROM submissions WHERE user_id = ANY($1::uuid[]) AND status <> 'pending'",
      [userIds],
    )) as FactsRecord[];
    return collectFacts(rows);
  }

  async recent(tx: EntityManager, userId: string, limit: number): Promise<RecentSubmissionRow[]> {
    const rows = (await tx.query(
      `SELECT id, name, platform, url, views, status, rejected_reason, created_at FROM submissions WHERE user_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [userId, limit],
    )) as {
      id: string;
      name: string;
      platform: string;
      url: string;
      views: string;
      status: SubmissionStatus;
      rejected_reason: string | null;
      created_at: Date;
    }[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      platform: r.platform,
      url: r.url,
      views: Number(r.views),
      status: r.status,
      rejectedReason: r.rejected_reason,
      createdAt: r.created_at,
    }));
  }

  async nameOf(tx: EntityManager, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = (await tx.query('SELECT id, name FROM submissions WHERE id = ANY($1::uuid[])', [ids])) as { id: string; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
