import { userFromIdentity } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { StandingRepository } from '../repositories/standing.repository.js';

/**
 * Whether an id is a user, for the reads that take one from a path (a clipper's public stats): an id that
 * is no user is 'User not found', never a clipper with nothing yet (ADR 0037). The people read model, fed
 * by identity's user.registered, answers; an id it has not heard of is confirmed with identity before the
 * refusal, so a user who signed up a moment ago (their event still on its way) is never refused for the lag.
 */
@Injectable()
export class DirectoryService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly standings: StandingRepository,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityPort,
  ) {}

  /** Resolves when `id` (a valid uuid) is a user; NOT_FOUND 'User not found' when identity knows no such user. */
  async requireUser(id: string): Promise<void> {
    if (await this.people.find(this.standings.reader, id)) return;
    // Not kept: the event brings the whole snapshot (the wallet and when it changed, which payouts read)
    // a moment later, and a miss costs one call only until then.
    await userFromIdentity(this.identity, id);
  }
}
