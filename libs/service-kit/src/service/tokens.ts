/**
 * Injection tokens every service shares: what the kit's start-up builds before Nest starts and hands
 * in (the typed configuration, the logger, the NATS connection). The database is injected as
 * TypeORM's `DataSource` class.
 */
export const CONFIG = Symbol('CONFIG');
export const LOGGER = Symbol('LOGGER');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
/** A Redis connection opened by redisResource (rate limits, readiness). */
export const REDIS = Symbol('REDIS');
