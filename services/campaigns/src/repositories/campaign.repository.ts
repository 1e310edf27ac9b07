import type { CampaignStatus } from '@clipit/contracts';
import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Campaign, StreamerNames } from '../domain/campaign.js';

/** A campaign with its streamer's names (from the people read model). */
export type ListedCampaign = Campaign & { names: StreamerNames };

interface CampaignRecord {
  id: string;
  streamer_id: string;
  title: string;
  description: string;
  target_views: string;
  budget_amount: string;
  content_link: string | null;
  status: CampaignStatus;
  delivered_views: string;
  announced_progress_step: number;
  rejected_reason: string | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  approved_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  streamer_display_name?: string | null;
  streamer_twitter_username?: string | null;
}

const COLUMNS =
  'c.id, c.streamer_id, c.title, c.description, c.target_views, c.budget_amount, c.content_link, c.status, c.delivered_views, c.announced_progress_step, c.rejected_reason, c.reviewed_by, c.reviewed_at, c.approved_at, c.completed_at, c.created_at, c.updated_at';

const toCampaign = (r: CampaignRecord): Campaign => ({
  id: r.id,
  streamerId: r.streamer_id,
  title: r.title,
  description: r.description,
  targetViews: Number(r.target_views),
  budgetAmount: r.budget_amount,
  contentLink: r.content_link,
  status: r.status,
  deliveredViews: Number(r.delivered_views),
  announcedProgressStep: r.announced_progress_step,
  rejectedReason: r.rejected_reason,
  reviewedBy: r.reviewed_by,
  reviewedAt: r.reviewed_at,
  approvedAt: r.approved_at,
  completedAt: r.completed_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface CampaignFilter {
  streamerId?: string | undefined;
  status?: CampaignStatus | undefined;
}

function where(filter: CampaignFilter, before: KeysetPosition | undefined): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.streamerId) clauses.push(`c.streamer_id = $${params.push(filter.streamerId)}`);
  if (filter.status) clauses.push(`c.status = $${params.push(filter.status)}`);
  if (before) clauses.push(`(c.created_at, c.id) < ($${params.push(before.createdAt)}, $${params.push(before.id)})`);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** The only code that reads or writes cpm_campaigns; writes take the caller's transaction. */
@Injectable()
export class CampaignRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, c: Campaign): Promise<void> {
    await tx.query(
      `INSERT INTO cpm_campaigns (id, streamer_id, title, description, target_views, budget_amount, content_link, status, delivered_views, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        c.id,
        c.streamerId,
        c.title,
        c.description,
        c.targetViews,
        c.budgetAmount,
        c.contentLink,
        c.status,
        c.deliveredViews,
        c.createdAt,
        c.updatedAt,
      ],
    );
  }

  /** One campaign, as it stands (no lock). */
  async findById(id: string): Promise<Campaign | undefined> {
    const rows = (await this.dataSource.query(`SELECT ${COLUMNS} FROM cpm_campaigns c WHERE c.id = $1`, [id])) as CampaignRecord[];
    return rows[0] ? toCampaign(rows[0]) : undefined;
  }

  /** One campaign, locked for the caller's transaction. */
  async lock(tx: EntityManager, id: string): Promise<Campaign | undefined> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM cpm_campaigns c WHERE c.id = $1 FOR UPDATE`, [id])) as CampaignRecord[];
    return rows[0] ? toCampaign(rows[0]) : undefined;
  }

  /** The streamer's running (approved) campaign, locked; at most one exists (cpm_campaigns_one_running_idx). */
  async lockRunning(tx: EntityManager, streamerId: string): Promise<Campaign | undefined> {
    const rows = (await tx.query(`SELECT ${COLUMNS} FROM cpm_campaigns c WHERE c.streamer_id = $1 AND c.status = 'approved' FOR UPDATE`, [
      streamerId,
    ])) as CampaignRecord[];
    return rows[0] ? toCampaign(rows[0]) : undefined;
  }

  /** Writes a campaign's review, progress (with the step announced) and completion fields. */
  async save(tx: EntityManager, c: Campaign): Promise<void> {
    await tx.query(
      `UPDATE cpm_campaigns SET status = $2, delivered_views = $3, rejected_reason = $4, reviewed_by = $5, reviewed_at = $6, approved_at = $7,
         completed_at = $8, updated_at = $9, announced_progress_step = $10 WHERE id = $1`,
      [
        c.id,
        c.status,
        c.deliveredViews,
        c.rejectedReason,
        c.reviewedBy,
        c.reviewedAt,
        c.approvedAt,
        c.completedAt,
        c.updatedAt,
        c.announcedProgressStep,
      ],
    );
  }

  /** `limit` campaigns strictly older than `before`, newest first, with their streamers' names. */
  async listPage(filter: CampaignFilter, limit: number, before: KeysetPosition | undefined): Promise<ListedCampaign[]> {
    const w = where(filter, before);
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS}, p.display_name AS streamer_display_name, p.twitter_username AS streamer_twitter_username
       FROM cpm_campaigns c LEFT JOIN campaign_people p ON p.user_id = c.streamer_id
       ${w.sql} ORDER BY c.created_at DESC, c.id DESC LIMIT ${Number(limit)}`,
      w.params,
    )) as CampaignRecord[];
    return rows.map((r) => ({
      ...toCampaign(r),
      names: { displayName: r.streamer_display_name ?? null, twitterUsername: r.streamer_twitter_username ?? null },
    }));
  }

  async count(filter: CampaignFilter): Promise<number> {
    const w = where(filter, undefined);
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS n FROM cpm_campaigns c ${w.sql}`, w.params)) as { n: number }[];
    return rows[0]!.n;
  }
}
