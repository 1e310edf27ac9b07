import type { identityContract, submissionsContract } from '@clipit/contracts';
import type { ClientOf } from '@clipit/service-kit';

// The services the gateway calls; the kit creates, provides, closes and health-checks the clients (app.ts).

/** identity's gRPC API, answering Promises; failures are GrpcCallError with the owner's message. */
export type IdentityClient = ClientOf<typeof identityContract>;
export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

/** submissions' gRPC API, answering Promises; failures are GrpcCallError with the owner's message. */
export type SubmissionsClient = ClientOf<typeof submissionsContract>;
export const SUBMISSIONS_CLIENT = Symbol('SUBMISSIONS_CLIENT');
