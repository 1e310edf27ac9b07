import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable rewards reads, with a default that works on one machine. Validated once at boot. */
export const rewardsConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('REWARDS', { grpcPort: 50057, httpPort: 8108 }),
  ...databaseConfigShape('REWARDS', 'clipit_rewards'),
  /** How long a replica keeps the tiers and multiplier steps it read (ADR 0025: a change is live within a minute). */
  REWARDS_TABLES_CACHE_MS: env.int(60_000),
};

export type RewardsConfig = ConfigOf<typeof rewardsConfigShape>;

export function loadRewardsConfig(source: NodeJS.ProcessEnv = process.env): RewardsConfig {
  return loadConfig(rewardsConfigShape, source);
}
