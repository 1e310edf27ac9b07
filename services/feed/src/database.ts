import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { CreateReadModels1764600000000 } from './migrations/1764600000000-create-read-models.js';
import { AddRewardsAndHiringReadModels1767300000000 } from './migrations/1767300000000-add-rewards-and-hiring-read-models.js';

// feed's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
// The read models are written and read in SQL (conditional upserts, figures recomputed): no entities.
export const feedEntities = [];

/** In order; the kit's outbox/inbox tables come first. */
export const feedMigrations = [
  CreateEventBusTables1763700000000,
  CreateReadModels1764600000000,
  AddRewardsAndHiringReadModels1767300000000,
];
