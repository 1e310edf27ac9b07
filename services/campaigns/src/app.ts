import { campaignsContract } from '@clipit/contracts';
import { bootstrapService, defineService, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { CampaignsModule } from './app.module.js';
import { campaignsConfigShape, type CampaignsConfig } from './config.js';
import { campaignsEntities, campaignsMigrations } from './database.js';
import { ClipperProfileEventsService } from './services/clipper-profile-events.service.js';
import { ProjectionsService } from './services/projections.service.js';

/** campaigns: Campaigns and hiring: clipper job applications, CPM campaigns, clipper profiles and services, and hire requests. Served over gRPC (campaigns.v1.CampaignsService). */
export const campaignsService = defineService(campaignsConfigShape, {
  name: 'campaigns',
  version: packageVersion(import.meta.url),
  database: { entities: campaignsEntities, migrations: campaignsMigrations },
  grpc: campaignsContract,
  events: ({ get }) => ({
    'user.registered': (event, tx) => get(ProjectionsService).onUser(event.data, tx),
    'user.updated': (event, tx) => get(ProjectionsService).onUser(event.data, tx),
    'rewards.standing-changed': (event, tx) => get(ProjectionsService).onStandingChanged(event.data, tx),
    'submission.created': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.approved': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.rejected': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.feed-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.video-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    // A post's counted views moved: a running campaign's delivered views follow.
    'metrics.updated': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
  }),
  workers: [
    {
      // Profiles made before clipper-profile.changed existed are told once, at start-up; until Postgres
      // answers it tries again each minute (nothing else waits on it: the cards show no profile meanwhile).
      name: 'untold clipper profiles',
      start: async ({ get, logger }) => {
        const events = get(ClipperProfileEventsService);
        let timer: NodeJS.Timeout | undefined;
        const attempt = async (): Promise<void> => {
          try {
            const told = await events.tellUntold();
            if (told > 0) logger.info({ told }, 'told the clipper profiles made before clipper-profile.changed');
          } catch (err) {
            logger.warn({ err }, 'could not tell the untold clipper profiles; trying again in a minute');
            timer = setTimeout(() => void attempt(), 60_000);
            timer.unref();
          }
        };
        await attempt();
        return { stop: async () => clearTimeout(timer) };
      },
    },
  ],
  module: CampaignsModule,
});

export type CampaignsApp = ServiceApp<CampaignsConfig>;
export type CampaignsConfigOverrides = ConfigOverrides<typeof campaignsConfigShape>;

export const bootstrapCampaigns = (overrides: CampaignsConfigOverrides = {}): Promise<CampaignsApp> =>
  bootstrapService(campaignsService, overrides);
