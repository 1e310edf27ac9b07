import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ClipperTier } from '../domain/standing.js';
import type { PointsBreakdown } from '../domain/rules.js';

/** A clipper's standing: clip points, points tier, user tier (spec 02 §3 clipper_profiles' points fields, users.currentTier). */
export interface Standing {
  userId: string;
  clipPoints: number;
  clipperTier: ClipperTier;
  currentTier: number;
  breakdown: PointsBreakdown;
  revision: number;
  lastClipPointsUpdate: Date | null;
  lastApprovedClipDate: Date | null;
}

interface StandingRecord {
  user_id: string;
  clip_points: string;
  clipper_tier: ClipperTier;
  current_tier: number;
  breakdown: PointsBreakdown;
  revision: number;
  last_clip_points_update: Date | null;
  last_approved_clip_date: Date | null;
}

const COLUMNS = 'user_id, clip_points, clipper_tier, current_tier, breakdown, revision, last_clip_points_update, last_approved_clip_date';

const toStanding = (r: StandingRecord): Standing => ({
  userId: r.user_id,
  clipPoints: Number(r.clip_points),
  clipperTier: r.clipper_tier,
  currentTier: r.current_tier,
  breakdown: r.breakdown,
  revision: r.revision,
  lastClipPointsUpdate: r.last_clip_points_update,
  lastApprovedClipDate: r.last_approved_clip_date,
});

/** `clipper_standings`: one row per clipper who has submitted, written only by a recompute. */
@Injectable()
export class StandingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The manager for reads outside a transaction. */
  get reader(): EntityManager {
    return this.dataSource.manager;
  }

  /** The clipper's standing, locked until the transaction ends (a recompute's read-modify-write). */
  async lock(tx: EntityManager, userId: string): Promise<Standing | undefined> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM clipper_standings WHERE user_id = $1 FOR UPDATE`, [userId])) as StandingRecord[];
    return rows[0] ? toStanding(rows[0]) : undefined;
  }

  /** The standings of many clippers, locked (the bulk recompute). */
  async lockMany(tx: EntityManager, userIds: readonly string[]): Promise<Map<string, Standing>> {
    if (userIds.length === 0) return new Map();
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM clipper_standings WHERE user_id = ANY($1::uuid[]) ORDER BY user_id FOR UPDATE`, [
      userIds,
    ])) as StandingRecord[];
    return new Map(rows.map((r) => [r.user_id, toStanding(r)]));
  }

  async find(tx: EntityManager, userId: string): Promise<Standing | undefined> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM clipper_standings WHERE user_id = $1`, [userId])) as StandingRecord[];
    return rows[0] ? toStanding(rows[0]) : undefined;
  }

  /** Writes the standings (insert or replace), in one statement however many. */
  async save(tx: EntityManager, standings: readonly Standing[]): Promise<void> {
    if (standings.length === 0) return;
    await tx.query(
      `INSERT INTO clipper_standings (${COLUMNS})
       SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::int[], $5::jsonb[], $6::int[], $7::timestamptz[], $8::timestamptz[])
       ON CONFLICT (user_id) DO UPDATE SET clip_points = excluded.clip_points, clipper_tier = excluded.clipper_tier, current_tier = excluded.current_tier,
         breakdown = excluded.breakdown, revision = excluded.revision, last_clip_points_update = excluded.last_clip_points_update,
         last_approved_clip_date = excluded.last_approved_clip_date`,
      [
        standings.map((s) => s.userId),
        standings.map((s) => s.clipPoints),
        standings.map((s) => s.clipperTier),
        standings.map((s) => s.currentTier),
        standings.map((s) => JSON.stringify(s.breakdown)),
        standings.map((s) => s.revision),
        standings.map((s) => s.lastClipPointsUpdate),
        standings.map((s) => s.lastApprovedClipDate),
      ],
    );
  }

  /** Rank by points among all clippers (ties share the better rank) and how many clippers there are. */
  async rankOf(tx: EntityManager, points: number): Promise<{ rank: number; total: number }> {
    const rows = (await tx.query('SELECT count(*) FILTER (WHERE clip_points > $1) AS above, count(*) AS total FROM clipper_standings', [
      points,
    ])) as {
      above: string;
      total: string;
    }[];
    return { rank: Number(rows[0]!.above) + 1, total: Number(rows[0]!.total) };
  }

  /** Clippers with a standing after `afterId`, in id order, `limit` at a time. */
  async idsAfter(tx: EntityManager, afterId: string | null, limit: number): Promise<string[]> {
    const rows = (await tx.query(
      'SELECT user_id FROM clipper_standings WHERE ($1::uuid IS NULL OR user_id > $1::uuid) ORDER BY user_id LIMIT $2',
      [afterId, limit],
    )) as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }
}
