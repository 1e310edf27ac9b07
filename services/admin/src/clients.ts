import type { campaignsContract, identityContract, rewardsContract, submissionsContract } from '@clipit/contracts';
import type { ClientOf } from '@clipit/service-kit';

// The services admin carries commands to; the kit creates, provides, closes and health-checks the clients (app.ts).

export type SubmissionsClient = ClientOf<typeof submissionsContract>;
export const SUBMISSIONS_CLIENT = Symbol('SUBMISSIONS_CLIENT');

export type IdentityClient = ClientOf<typeof identityContract>;
export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

export type CampaignsClient = ClientOf<typeof campaignsContract>;
export const CAMPAIGNS_CLIENT = Symbol('CAMPAIGNS_CLIENT');

export type RewardsClient = ClientOf<typeof rewardsContract>;
export const REWARDS_CLIENT = Symbol('REWARDS_CLIENT');

/** Counts verify-password attempts per address (a RateLimiter over the kit's Redis). */
export const LOGIN_LIMITER = Symbol('LOGIN_LIMITER');

/** The platform's queues admin counts for system metrics (read-only BullMQ handles, ADR 0039). */
export const QUEUE_READERS = Symbol('QUEUE_READERS');
