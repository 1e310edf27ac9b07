import { rewardsContract } from '@clipit/contracts';
import { bootstrapService, defineService, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { RewardsModule } from './app.module.js';
import { rewardsConfigShape, type RewardsConfig } from './config.js';
import { rewardsEntities, rewardsMigrations } from './database.js';

/** rewards: Tiers, clip points, earnings per approved clip and the weekly payouts to clippers' Solana wallets. Served over gRPC (rewards.v1.RewardsService). */
export const rewardsService = defineService(rewardsConfigShape, {
  name: 'rewards',
  version: packageVersion(import.meta.url),
  database: { entities: rewardsEntities, migrations: rewardsMigrations },
  grpc: rewardsContract,
  module: RewardsModule,
});

export type RewardsApp = ServiceApp<RewardsConfig>;
export type RewardsConfigOverrides = ConfigOverrides<typeof rewardsConfigShape>;

export const bootstrapRewards = (overrides: RewardsConfigOverrides = {}): Promise<RewardsApp> => bootstrapService(rewardsService, overrides);
