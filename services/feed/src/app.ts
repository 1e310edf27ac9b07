import { feedChangedSubject, feedContract, identityContract, type FeedChangedNotice } from '@clipit/contracts';
import {
  bootstrapService,
  defineService,
  grpcClient,
  NATS_CONNECTION,
  packageVersion,
  type ConfigOverrides,
  type NatsConnection,
  type ServiceApp,
} from '@clipit/service-kit';
import { FeedModule } from './app.module.js';
import { feedConfigShape, type FeedConfig } from './config.js';
import { feedEntities, feedMigrations } from './database.js';
import { IDENTITY_CLIENT } from './ports.js';
import { LagService } from './services/lag.service.js';
import { ProjectionsService } from './services/projections.service.js';

/**
 * feed: the read models behind every public read (the clip feed, leaderboards, featured clippers, top
 * streamers, creators, clipper profiles, tagged videos), built only from events and served over gRPC
 * (feed.v1.FeedService). After each applied event it sends a notice so gateways drop cached reads.
 */
export const feedService = defineService(feedConfigShape, {
  name: 'feed',
  version: packageVersion(import.meta.url),
  database: { entities: feedEntities, migrations: feedMigrations },
  grpc: feedContract,
  // Asked only to confirm an id the people read model has not heard of: reported, not a reason to leave traffic.
  clients: [grpcClient(identityContract, { token: IDENTITY_CLIENT, url: (c) => c.IDENTITY_GRPC_URL, readiness: 'reported' })],
  events: ({ get }) => get(ProjectionsService).handlers(),
  afterEvent: ({ get, config }) => {
    const subject = feedChangedSubject(config.EVENTS_SUBJECT_PREFIX);
    return (event) => {
      const notice: FeedChangedNotice = { type: event.type, appliedAt: new Date().toISOString() };
      get<NatsConnection>(NATS_CONNECTION).publish(subject, JSON.stringify(notice));
    };
  },
  workers: [
    {
      name: 'projection lag',
      start: async ({ get, config, logger }) => {
        const lag = get(LagService);
        await lag.measure().catch((err: unknown) => logger.warn({ err }, 'could not measure the projection lag'));
        const timer = setInterval(() => {
          lag.measure().catch((err: unknown) => logger.debug({ err }, 'could not measure the projection lag'));
        }, config.FEED_LAG_CHECK_MS);
        timer.unref();
        return {
          stop: async () => clearInterval(timer),
          // Reported, not required: a lagging feed still answers, a little behind; taking every replica
          // out of traffic would turn a slow stream into an outage of every public page.
          health: [{ name: 'projections', optional: true, check: async () => lag.check() }],
        };
      },
    },
  ],
  module: FeedModule,
});

export type FeedApp = ServiceApp<FeedConfig>;
export type FeedConfigOverrides = ConfigOverrides<typeof feedConfigShape>;

export const bootstrapFeed = (overrides: FeedConfigOverrides = {}): Promise<FeedApp> => bootstrapService(feedService, overrides);
