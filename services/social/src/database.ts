import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { CreateSocialTables1764500000000 } from './migrations/1764500000000-create-social-tables.js';
import { KeepClipVideo1766400000000 } from './migrations/1766400000000-keep-clip-video.js';

// social's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
// The repositories speak SQL (conditional upserts, counters under a row lock): no entities.
export const socialEntities = [];

/** In order; the kit's outbox/inbox tables come first. */
export const socialMigrations = [CreateEventBusTables1763700000000, CreateSocialTables1764500000000, KeepClipVideo1766400000000];
