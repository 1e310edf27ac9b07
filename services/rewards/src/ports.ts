import type { identityV1 } from '@clipit/contracts';
import type { PromiseClient } from '@clipit/service-kit';

// What rewards reaches outside its own database: identity, only to confirm a user its people read model
// has not heard of yet (signed up a moment ago, or no user at all) before it answers 'User not found'.

export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

export type IdentityPort = Pick<PromiseClient<identityV1.IdentityServiceClient>, 'getUser'>;
