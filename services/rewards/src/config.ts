import { z } from 'zod';
import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable rewards reads, with a default that works on one machine. Validated once at boot. */
export const rewardsConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('REWARDS', { grpcPort: 50057, httpPort: 8108 }),
  ...databaseConfigShape('REWARDS', 'clipit_rewards'),
  /** How long a replica keeps the tiers and multiplier steps it read (ADR 0025: a change is live within a minute). */
  REWARDS_TABLES_CACHE_MS: env.int(60_000),
  /** identity's gRPC address (to confirm an id the people read model has not heard of before answering 'User not found'). */
  IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051'),
  /** Whether this replica runs the scheduled jobs (weekly payout, daily recompute, hold release); every replica may. */
  REWARDS_JOBS: env.bool(true),
  /** When the weekly payout runs: a cron pattern in UTC (spec 02 §9: Fridays). */
  PAYOUT_CRON: z.string().min(9).default('0 12 * * 5'),
  /** When every standing is recomputed: a cron pattern in UTC. */
  RECOMPUTE_CRON: z.string().min(9).default('30 0 * * *'),
  /** When held payouts whose 72 hours are over are paid (ADR 0032): a cron pattern in UTC, every 15 minutes by default. */
  HOLD_RELEASE_CRON: z.string().min(9).default('*/15 * * * *'),
  /** How payouts are made: `ledger` records them only; `solana` sends $CLIP (needs the three SOLANA_ variables). */
  PAYOUT_DRIVER: z.enum(['ledger', 'solana']).default('ledger'),
  /** The Solana JSON-RPC endpoint the solana driver sends through. */
  SOLANA_RPC_URL: env.url('http://127.0.0.1:8899', ['http', 'https']),
  /** The treasury's 64-byte secret key (a JSON array of numbers, or base58): it pays and signs. A secret. */
  SOLANA_TREASURY_KEY: z.string().default(''),
  /** The $CLIP mint's address. */
  SOLANA_CLIP_MINT: z.string().default(''),
};

export type RewardsConfig = ConfigOf<typeof rewardsConfigShape>;

export function loadRewardsConfig(source: NodeJS.ProcessEnv = process.env): RewardsConfig {
  return loadConfig(rewardsConfigShape, source);
}
