import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { CreateApiKeys1767000000000 } from './migrations/1767000000000-create-api-keys.js';
import { CreateWebhooks1767100000000 } from './migrations/1767100000000-create-webhooks.js';

// developer's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
// The repositories speak SQL (a count under a per-user lock, conditional updates): no entities.
export const developerEntities = [];

/** In order; the kit's outbox/inbox tables come first. */
export const developerMigrations = [CreateEventBusTables1763700000000, CreateApiKeys1767000000000, CreateWebhooks1767100000000];
