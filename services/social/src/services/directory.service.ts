import { userFromIdentity } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { personFromIdentity, type PersonRow } from '../domain/person.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { PeopleRepository } from '../repositories/people.repository.js';

/**
 * Who a user is, for social's rules (are they a streamer?) and lists. The people read model, fed by
 * identity's events, answers; a user it has not heard of yet (signed up a moment ago, their event still
 * on its way) is asked of identity once and kept, so a rule never refuses a real user for a lag.
 */
@Injectable()
export class DirectoryService {
  constructor(
    private readonly people: PeopleRepository,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityPort,
  ) {}

  /** The user, or NOT_FOUND 'User not found'. */
  async require(id: string): Promise<PersonRow> {
    const known = await this.people.find(id);
    if (known) return known;
    const person = personFromIdentity(await userFromIdentity(this.identity, id));
    await this.people.upsert(person);
    return person;
  }
}
