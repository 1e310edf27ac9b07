import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { toProfileSnapshot } from '../domain/profile.js';
import { ProfileRepository } from '../repositories/profile.repository.js';

/**
 * Tells the platform a clipper's hiring profile changed (clipper-profile.changed): the whole snapshot with
 * the profile's next revision, in the transaction of the change. Every write that changes what the
 * snapshot carries (made or renamed from identity, the owner's edit, a completed hire, a rating) calls
 * `changed` after it; nothing else needs to know what the event holds.
 */
@Injectable()
export class ClipperProfileEventsService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  async changed(tx: EntityManager, userId: string): Promise<void> {
    const next = await this.profiles.nextRevision(tx, userId);
    if (!next) return;
    await this.outbox.append(tx, 'clipper-profile.changed', { profile: toProfileSnapshot(next.profile), revision: next.revision });
  }

  /**
   * Tells every profile made before this event existed (revision 0), `batch` per transaction, so the
   * public cards of a platform older than clipper-profile.changed get their clipperProfile without waiting
   * for each profile's next change. Replicas share the work (SKIP LOCKED); answers how many were told.
   */
  async tellUntold(batch = 200): Promise<number> {
    let told = 0;
    for (;;) {
      const n = await this.transactions.run(async (tx) => {
        const userIds = await this.profiles.lockUntold(tx, batch);
        for (const userId of userIds) await this.changed(tx, userId);
        return userIds.length;
      });
      told += n;
      if (n < batch) return told;
    }
  }
}
