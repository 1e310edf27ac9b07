import { databaseConfigShape, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable rewards reads, with a default that works on one machine. Validated once at boot. */
export const rewardsConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('REWARDS', { grpcPort: 50057, httpPort: 8108 }),
  ...databaseConfigShape('REWARDS', 'clipit_rewards'),
};

export type RewardsConfig = ConfigOf<typeof rewardsConfigShape>;

export function loadRewardsConfig(source: NodeJS.ProcessEnv = process.env): RewardsConfig {
  return loadConfig(rewardsConfigShape, source);
}
