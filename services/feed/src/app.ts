import { feedContract } from '@clipit/contracts';
import { bootstrapService, defineService, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { FeedModule } from './app.module.js';
import { feedConfigShape, type FeedConfig } from './config.js';
import { feedEntities, feedMigrations } from './database.js';

/** feed: Read models of clips, creators and leaderboards, built from events, behind every public read. Served over gRPC (feed.v1.FeedService). */
export const feedService = defineService(feedConfigShape, {
  name: 'feed',
  version: packageVersion(import.meta.url),
  database: { entities: feedEntities, migrations: feedMigrations },
  grpc: feedContract,
  module: FeedModule,
});

export type FeedApp = ServiceApp<FeedConfig>;
export type FeedConfigOverrides = ConfigOverrides<typeof feedConfigShape>;

export const bootstrapFeed = (overrides: FeedConfigOverrides = {}): Promise<FeedApp> => bootstrapService(feedService, overrides);
