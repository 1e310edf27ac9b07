import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { AuditEntryEntity } from './entities/audit-entry.entity.js';
import { SystemMetricEntity } from './entities/system-metric.entity.js';
import { CreateAuditEntries1764200000000 } from './migrations/1764200000000-create-audit-entries.js';
import { CreateSystemMetrics1764900000000 } from './migrations/1764900000000-create-system-metrics.js';

// admin's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
export const adminEntities = [AuditEntryEntity, SystemMetricEntity];

/** In order; the kit's outbox/inbox tables come first. */
export const adminMigrations = [CreateEventBusTables1763700000000, CreateAuditEntries1764200000000, CreateSystemMetrics1764900000000];
