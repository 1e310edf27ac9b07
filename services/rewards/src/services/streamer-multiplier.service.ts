import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { streamerMultiplierChange } from '../domain/earning.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';

/** How many streamers one transaction of the daily recompute takes. */
export const MULTIPLIER_BATCH = 500;

/**
 * Tells the platform the multiplier rewards applies to each streamer (rewards.streamer-multiplier-changed,
 * ADR 0042), so the public reads show the one clips get: on every user or follower-count change of the
 * person, and for every streamer in the daily recompute (the steps are data: a changed step reaches
 * everyone within a day). Published only when it changed, in the transaction of the change.
 */
@Injectable()
export class StreamerMultiplierService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly tables: TiersRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /** One person, in the caller's transaction; true when a new multiplier was published. */
  async reconcile(tx: EntityManager, userId: string, now = new Date()): Promise<boolean> {
    const { steps } = await this.tables.current();
    const person = await this.people.lockMultiplier(tx, userId);
    if (!person) return false;
    const change = streamerMultiplierChange(person, steps);
    if (!change) return false;
    await this.people.saveAppliedMultiplier(tx, userId, change.multiplier, change.revision);
    await this.outbox.append(tx, 'rewards.streamer-multiplier-changed', {
      userId,
      multiplier: change.multiplier,
      followerCount: person.followerCount,
      revision: change.revision,
      at: now.toISOString(),
    });
    return true;
  }

  /** Every streamer, MULTIPLIER_BATCH per transaction; how many there were and how many changed. */
  async reconcileAll(now = new Date()): Promise<{ streamers: number; changed: number }> {
    let after: string | null = null;
    let streamers = 0;
    let changed = 0;
    for (;;) {
      const batch = await this.transactions.run(async (tx) => {
        const ids = await this.people.streamerIdsAfter(tx, after, MULTIPLIER_BATCH);
        let n = 0;
        for (const id of ids) if (await this.reconcile(tx, id, now)) n += 1;
        return { ids, changed: n };
      });
      if (batch.ids.length === 0) break;
      changed += batch.changed;
      streamers += batch.ids.length;
      after = batch.ids.at(-1)!;
    }
    return { streamers, changed };
  }
}
