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
/** `{ name, version }` of the running service (ServiceInfo). */
export const SERVICE_INFO = Symbol('SERVICE_INFO');

/** What a service is: its name and the version it was built from (its package.json). */
export interface ServiceInfo {
  name: string;
  version: string;
}
