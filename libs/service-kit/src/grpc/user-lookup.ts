import type { identityV1 } from '@clipit/contracts';
import { status } from '@grpc/grpc-js';
import { GrpcCallError, type PromiseClient } from './client.js';
import { DomainError, notFound } from './errors.js';

// An owner that answers for an id from its read model of people confirms a miss with identity before it
// refuses (ADR 0037): a user who signed up a moment ago, their user.registered still on its way, is never
// refused for the lag. Every owner asks and words the refusals the same way, so they live here once.

/** The one thing an owner asks identity for this: the user with an id. */
export type UserLookupPort = Pick<PromiseClient<identityV1.IdentityServiceClient>, 'getUser'>;

export const USER_LOOKUP_MESSAGES = {
  userNotFound: 'User not found',
  identityUnavailable: 'This user cannot be looked up right now; please try again in a minute',
} as const;

/**
 * The user identity knows by `id`; NOT_FOUND 'User not found' when it knows none, UNAVAILABLE with a text
 * when identity is away or silent (a read, so trying again is safe). Anything else is thrown as it came.
 */
export async function userFromIdentity(identity: UserLookupPort, id: string): Promise<identityV1.User> {
  try {
    return await identity.getUser({ id });
  } catch (err) {
    if (err instanceof GrpcCallError && err.code === status.NOT_FOUND) throw notFound(USER_LOOKUP_MESSAGES.userNotFound);
    if (err instanceof GrpcCallError && (err.code === status.UNAVAILABLE || err.code === status.DEADLINE_EXCEEDED)) {
      throw new DomainError(status.UNAVAILABLE, USER_LOOKUP_MESSAGES.identityUnavailable);
    }
    throw err;
  }
}
