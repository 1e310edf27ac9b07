import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { CreateRewardsTables1765000000000 } from './migrations/1765000000000-create-rewards-tables.js';
import { AddWalletHolds1766200000000 } from './migrations/1766200000000-add-wallet-holds.js';
import { AddAppliedMultipliers1767300000000 } from './migrations/1767300000000-add-applied-multipliers.js';
import { AddEarningHolds1767400000000 } from './migrations/1767400000000-add-earning-holds.js';

// rewards's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
// The repositories speak SQL (conditional upserts, locked read-modify-writes): no entities.
export const rewardsEntities = [];

/** In order; the kit's outbox/inbox tables come first. */
export const rewardsMigrations = [
  CreateEventBusTables1763700000000,
  CreateRewardsTables1765000000000,
  AddWalletHolds1766200000000,
  AddAppliedMultipliers1767300000000,
  AddEarningHolds1767400000000,
];
