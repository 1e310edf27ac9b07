import { Outbox } from '@clipit/service-kit';
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
  ) {}

  async changed(tx: EntityManager, userId: string): Promise<void> {
    const next = await this.profiles.nextRevision(tx, userId);
    if (!next) return;
    await this.outbox.append(tx, 'clipper-profile.changed', { profile: toProfileSnapshot(next.profile), revision: next.revision });
  }
}
