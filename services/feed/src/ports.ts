import type { UserLookupPort } from '@clipit/service-kit';

// What feed reaches outside its own database and the bus: identity, only to confirm an id its people read
// model has not heard of (signed up a moment ago, or no user at all) before it answers 'User not found'.

export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

export type IdentityPort = UserLookupPort;
