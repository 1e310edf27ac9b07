import { identityContract, rewardsContract } from '@clipit/contracts';
import { bootstrapService, defineService, grpcClient, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { RewardsModule } from './app.module.js';
import { rewardsConfigShape, type RewardsConfig } from './config.js';
import { rewardsEntities, rewardsMigrations } from './database.js';
import { rewardsJobs } from './jobs/rewards-jobs.js';
import { IDENTITY_CLIENT } from './ports.js';
import { AppealReleasesService } from './services/appeal-releases.service.js';
import { PayoutService, type HoldReleaseResult, type PayoutRunResult } from './services/payout.service.js';
import { ProjectionsService } from './services/projections.service.js';
import { DashboardNotices } from './services/dashboard-notices.service.js';

/** rewards: Tiers, clip points, earnings per approved clip and the weekly payouts to clippers' Solana wallets. Served over gRPC (rewards.v1.RewardsService). */
export const rewardsService = defineService(rewardsConfigShape, {
  name: 'rewards',
  version: packageVersion(import.meta.url),
  database: { entities: rewardsEntities, migrations: rewardsMigrations },
  grpc: rewardsContract,
  // Asked only to confirm an id the people read model has not heard of: reported, not a reason to leave traffic.
  clients: [grpcClient(identityContract, { token: IDENTITY_CLIENT, url: (c) => c.IDENTITY_GRPC_URL, readiness: 'reported' })],
  events: ({ get }) => ({
    'user.registered': (event, tx) => get(ProjectionsService).onUser(event.data, tx),
    'user.updated': (event, tx) => get(ProjectionsService).onUser(event.data, tx),
    'social.followed': (event, tx) => get(ProjectionsService).onFollowChange(event.data, tx),
    'social.unfollowed': (event, tx) => get(ProjectionsService).onFollowChange(event.data, tx),
    'submission.created': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.approved': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.rejected': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.feed-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.video-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    // Its video matches were stored: a flagged clip's earning is held (ADR 0050).
    'submission.matches-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    // A post's X metrics moved (or it was verified): its counted views feed points, tiers and earnings.
    'metrics.updated': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    // An admin overturned the appeal of a held earning: released as their own release would (ADR 0051).
    'appeal.decided': (event, tx) => get(AppealReleasesService).onAppealDecided(event.data, tx),
  }),
  // After each applied event's commit, the gateways drop the dashboard it changed (ADR 0045).
  afterEvent: ({ get }) => {
    const notices = get(DashboardNotices);
    return (event) => notices.afterEvent(event);
  },
  workers: [rewardsJobs],
  module: RewardsModule,
});

export type RewardsApp = ServiceApp<RewardsConfig>;
export type RewardsConfigOverrides = ConfigOverrides<typeof rewardsConfigShape>;

export const bootstrapRewards = (overrides: RewardsConfigOverrides = {}): Promise<RewardsApp> =>
  bootstrapService(rewardsService, overrides);

export type { HoldReleaseResult, PayoutRunResult };

/** The weekly payout run at `now`, as the scheduled job runs it (operations scripts and end-to-end tests). */
export const runPayouts = async (app: RewardsApp, now = new Date()): Promise<PayoutRunResult> => {
  const result = await app.get(PayoutService).run(now);
  app.get(DashboardNotices).everyone('weekly-payout');
  return result;
};

/** The release of held payouts whose 72 hours are over at `now` (ADR 0032), as the scheduled job runs it. */
export const releaseHolds = async (app: RewardsApp, now = new Date()): Promise<HoldReleaseResult> => {
  const result = await app.get(PayoutService).releaseHolds(now);
  app.get(DashboardNotices).everyone('release-holds');
  return result;
};
