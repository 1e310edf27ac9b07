import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RewardsConfig } from '../config.js';
import type { MultiplierStep, Tier } from '../domain/rules.js';

export interface TierRow extends Tier {
  description: string;
}

export interface RewardsTables {
  tiers: TierRow[];
  steps: MultiplierStep[];
}

interface TierRecord {
  level: number;
  name: string;
  description: string;
  rate_per_post: string;
  min_total_approved: number;
  window_weeks: number;
  min_approved_in_window: number;
  min_approval_rate: string;
  min_avg_views: number;
}

/**
 * The tiers and the follower-count multiplier steps: data, changed with an UPDATE and no deploy (ADR
 * 0025). Read at most once per REWARDS_TABLES_CACHE_MS (60 s by default) per replica, so a change is in
 * effect everywhere within a minute.
 */
@Injectable()
export class TiersRepository {
  private cached: { at: number; tables: Promise<RewardsTables> } | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: RewardsConfig,
  ) {}

  current(now = Date.now()): Promise<RewardsTables> {
    if (this.cached && now - this.cached.at < this.config.REWARDS_TABLES_CACHE_MS) return this.cached.tables;
    const tables = this.load();
    this.cached = { at: now, tables };
    // A failed read is not kept: the next call tries again.
    tables.catch(() => {
      if (this.cached?.tables === tables) this.cached = undefined;
    });
    return tables;
  }

  private async load(): Promise<RewardsTables> {
    const [tiers, steps] = await Promise.all([
      this.dataSource.query(
        `SELECT level, name, description, rate_per_post, min_total_approved, window_weeks, min_approved_in_window, min_approval_rate, min_avg_views
         FROM tiers ORDER BY level`,
      ) as Promise<TierRecord[]>,
      this.dataSource.query('SELECT min_followers, multiplier FROM multiplier_steps ORDER BY min_followers') as Promise<
        { min_followers: number; multiplier: string }[]
      >,
    ]);
    if (tiers.length === 0) throw new Error('the tiers table is empty');
    return {
      tiers: tiers.map((r) => ({
        level: r.level,
        name: r.name,
        description: r.description,
        ratePerPost: Number(r.rate_per_post),
        minTotalApproved: r.min_total_approved,
        windowWeeks: r.window_weeks,
        minApprovedInWindow: r.min_approved_in_window,
        minApprovalRate: Number(r.min_approval_rate),
        minAvgViews: r.min_avg_views,
      })),
      steps: steps.map((s) => ({ minFollowers: s.min_followers, multiplier: Number(s.multiplier) })),
    };
  }
}
