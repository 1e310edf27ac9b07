import type {
  adminContract,
  campaignsContract,
  developerContract,
  feedContract,
  identityContract,
  rewardsContract,
  socialContract,
  submissionsContract,
} from '@clipit/contracts';
import type { ClientOf } from '@clipit/service-kit';

// The services the gateway calls; the kit creates, provides, closes and health-checks the clients (app.ts).

/** identity's gRPC API, answering Promises; failures are GrpcCallError with the owner's message. */
export type IdentityClient = ClientOf<typeof identityContract>;
export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

/** submissions' gRPC API, answering Promises; failures are GrpcCallError with the owner's message. */
export type SubmissionsClient = ClientOf<typeof submissionsContract>;
export const SUBMISSIONS_CLIENT = Symbol('SUBMISSIONS_CLIENT');

/** admin's gRPC API: the admin area's commands, each checked against the admin token there. */
export type AdminClient = ClientOf<typeof adminContract>;
export const ADMIN_CLIENT = Symbol('ADMIN_CLIENT');

/** campaigns' gRPC API: clipper job applications (later CPM campaigns and hiring). */
export type CampaignsClient = ClientOf<typeof campaignsContract>;
export const CAMPAIGNS_CLIENT = Symbol('CAMPAIGNS_CLIENT');

/** social's gRPC API: follows, likes, live state and stream time. */
export type SocialClient = ClientOf<typeof socialContract>;
export const SOCIAL_CLIENT = Symbol('SOCIAL_CLIENT');

/** feed's gRPC API: the read models behind every public read. */
export type FeedClient = ClientOf<typeof feedContract>;
export const FEED_CLIENT = Symbol('FEED_CLIENT');

/** rewards' gRPC API: the dashboard, clip points, earnings, the payout ledger and the tiers. */
export type RewardsClient = ClientOf<typeof rewardsContract>;
export const REWARDS_CLIENT = Symbol('REWARDS_CLIENT');

/** developer's gRPC API: API keys (the versioned read API's authentication) and webhook endpoints. */
export type DeveloperClient = ClientOf<typeof developerContract>;
export const DEVELOPER_CLIENT = Symbol('DEVELOPER_CLIENT');
