import type { SubmissionSnapshot, UserSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { personFromSnapshot } from '../domain/person.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';

/**
 * The read models social keeps from other services' events, each applied in the transaction of its
 * inbox row: people (identity's user.registered, user.updated) and clips (every submission event, whose
 * snapshot says whether the clip is approved and in the feed). Older news never overwrites newer.
 */
@Injectable()
export class ProjectionsService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly clips: ClipRepository,
  ) {}

  async onUser(data: { user: UserSnapshot }, tx: EntityManager): Promise<void> {
    await this.people.upsert(personFromSnapshot(data.user), tx);
  }

  async onSubmission(data: { submission: SubmissionSnapshot }, tx: EntityManager): Promise<void> {
    await this.clips.upsertFromSnapshot(tx, data.submission);
  }
}
