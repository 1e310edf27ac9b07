import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable feed reads, with a default that works on one machine. Validated once at boot. */
export const feedConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('FEED', { grpcPort: 50056, httpPort: 8107 }),
  ...databaseConfigShape('FEED', 'clipit_feed'),
  /** Readiness turns degraded when the oldest event not applied yet is older than this. */
  FEED_MAX_LAG_SECONDS: env.int(30, 1),
  /** How often the lag behind the stream is measured (metrics and readiness). */
  FEED_LAG_CHECK_MS: env.int(2000, 100),
  /** identity's gRPC address: asked only to confirm an id the people read model has not heard of before 'User not found' (ADR 0037). */
  IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051'),
};

export type FeedConfig = ConfigOf<typeof feedConfigShape>;

export function loadFeedConfig(source: NodeJS.ProcessEnv = process.env): FeedConfig {
  return loadConfig(feedConfigShape, source);
}
