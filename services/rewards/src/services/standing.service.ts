import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { computeStanding, standingChanged } from '../domain/standing.js';
import type { ClipperFacts, Tier } from '../domain/rules.js';
import { StandingRepository, type Standing } from '../repositories/standing.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';

/** How many clippers one transaction of the recompute of every standing takes. */
export const RECOMPUTE_BATCH = 500;

/**
 * Recomputes clippers' standings (points, points tier, user tier) from the submissions read model and
 * the tiers table, and tells the platform of every change (rewards.standing-changed, in the same
 * transaction). Run on every submission event of the clipper, on Refresh Points, and for everyone
 * daily (the inactivity penalty starts with time alone).
 */
@Injectable()
export class StandingService {
  constructor(
    private readonly standings: StandingRepository,
    private readonly submissions: SubmissionRepository,
    private readonly tables: TiersRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /** One clipper, in the caller's transaction; their row is locked until it ends. */
  async recompute(tx: EntityManager, userId: string, now = new Date()): Promise<Standing> {
    const { tiers } = await this.tables.current();
    const before = await this.standings.lock(tx, userId);
    const facts = await this.submissions.factsOf(tx, userId);
    const [after] = await this.apply(tx, tiers, [{ userId, facts, before }], now);
    return after!;
  }

  /**
   * Every clipper, RECOMPUTE_BATCH per transaction (each batch's rows locked only while it runs); how
   * many standings there were and how many changed.
   */
  async recomputeAll(now = new Date()): Promise<{ clippers: number; changed: number }> {
    const { tiers } = await this.tables.current();
    let after: string | null = null;
    let clippers = 0;
    let changed = 0;
    for (;;) {
      const ids = await this.standings.idsAfter(this.standings.reader, after, RECOMPUTE_BATCH);
      if (ids.length === 0) break;
      changed += await this.transactions.run(async (tx) => {
        const before = await this.standings.lockMany(tx, ids);
        const facts = await this.submissions.factsOfMany(tx, ids);
        const results = await this.apply(
          tx,
          tiers,
          ids.map((userId) => ({ userId, facts: facts.get(userId) ?? { approved: [], rejectedCount: 0 }, before: before.get(userId) })),
          now,
        );
        return results.filter((s, i) => s.revision !== before.get(ids[i]!)?.revision).length;
      });
      clippers += ids.length;
      after = ids.at(-1)!;
    }
    return { clippers, changed };
  }

  private async apply(
    tx: EntityManager,
    tiers: readonly Tier[],
    clippers: readonly { userId: string; facts: ClipperFacts; before: Standing | undefined }[],
    now: Date,
  ): Promise<Standing[]> {
    const results: Standing[] = [];
    for (const { userId, facts, before } of clippers) {
      const computed = computeStanding(tiers, facts, before?.currentTier ?? 1, now);
      const changed = standingChanged(before, computed);
      const standing: Standing = {
        userId,
        ...computed,
        revision: (before?.revision ?? 0) + (changed ? 1 : 0),
        lastClipPointsUpdate: now,
      };
      results.push(standing);
      if (changed) {
        await this.outbox.append(tx, 'rewards.standing-changed', {
          userId,
          clipPoints: standing.clipPoints,
          clipperTier: standing.clipperTier,
          currentTier: standing.currentTier,
          revision: standing.revision,
          at: now.toISOString(),
        });
      }
    }
    await this.standings.save(tx, results);
    return results;
  }
}
