import { databaseConfigShape, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable feed reads, with a default that works on one machine. Validated once at boot. */
export const feedConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('FEED', { grpcPort: 50056, httpPort: 8107 }),
  ...databaseConfigShape('FEED', 'clipit_feed'),
};

export type FeedConfig = ConfigOf<typeof feedConfigShape>;

export function loadFeedConfig(source: NodeJS.ProcessEnv = process.env): FeedConfig {
  return loadConfig(feedConfigShape, source);
}
