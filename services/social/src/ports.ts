import type { identityV1 } from '@clipit/contracts';
import type { PromiseClient } from '@clipit/service-kit';

// What social reaches outside its own database: identity, only for a user whose user.registered event
// has not arrived yet (the people read model answers everything else).

export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

export type IdentityPort = Pick<PromiseClient<identityV1.IdentityServiceClient>, 'getUser'>;
