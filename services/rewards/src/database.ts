import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';

// rewards's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
export const rewardsEntities = [];

/** In order; the kit's outbox/inbox tables come first. */
export const rewardsMigrations = [CreateEventBusTables1763700000000];
