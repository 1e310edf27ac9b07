import { parseHostPortList } from '../config/config.js';

/** The variables that say where Redis is (sharedConfigShape). */
export interface RedisConnectionConfig {
  REDIS_URL: string;
  /** `host:port,…`: with REDIS_SENTINEL_MASTER, Redis is found through these sentinels, not at REDIS_URL's host. */
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_MASTER?: string | undefined;
  /** The sentinels' own password; the master's is REDIS_URL's. */
  REDIS_SENTINEL_PASSWORD?: string | undefined;
}

/**
 * Where Redis is and how a client signs in, as ioredis (`new Redis(options)`) and BullMQ (`connection`)
 * take it. It says nothing of how a client rides out an outage: each adds its own retries, offline queue
 * and timeouts on top.
 */
export interface RedisConnectionOptions {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
  sentinels?: Array<{ host: string; port: number }>;
  /** The master's name at the sentinels. */
  name?: string;
  sentinelPassword?: string;
  enableTLSForSentinelMode?: boolean;
  /** REDIS_URL's query parameters (`?family=6`), passed on as ioredis reads them from a URL. */
  [option: string]: unknown;
}

/**
 * The one rule for every Redis client of the platform (the cache, the rate limits, BullMQ's producers
 * and workers), so a move to Sentinel is a change of variables, not of code (ADR 0054).
 *
 * - REDIS_URL alone: that server, read as ioredis reads a URL (`rediss://` for TLS, `/<db>`, user and
 *   password).
 * - REDIS_SENTINELS and REDIS_SENTINEL_MASTER: ioredis asks the sentinels where the master is, and again
 *   after a failover. REDIS_URL still gives the password, user, database and TLS of the master (its host
 *   and port are not used); REDIS_SENTINEL_PASSWORD is the sentinels' own.
 *
 * Throws on a half-set or malformed Sentinel configuration (loadConfig refuses it at boot already).
 */
export function redisConnectionOptions(config: RedisConnectionConfig): RedisConnectionOptions {
  const url = new URL(config.REDIS_URL);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, not ${url.protocol}//`);
  }
  const master = config.REDIS_SENTINEL_MASTER;
  const list = config.REDIS_SENTINELS;
  if ((list === undefined) !== (master === undefined)) {
    throw new Error('REDIS_SENTINELS and REDIS_SENTINEL_MASTER are set together (Sentinel mode) or not at all');
  }
  if (config.REDIS_SENTINEL_PASSWORD !== undefined && list === undefined) {
    throw new Error('REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not: it is only used to reach the sentinels');
  }
  const tls = url.protocol === 'rediss:';
  const signIn: RedisConnectionOptions = {
    ...queryOptions(url),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.pathname.length > 1 ? { db: database(url.pathname.slice(1)) } : {}),
    ...(tls ? { tls: {} } : {}),
  };
  if (list === undefined || master === undefined) {
    return {
      ...signIn,
      // As ioredis reads a URL: IPv6 without its brackets, the default port when none is written.
      ...(url.hostname ? { host: url.hostname.replace(/^\[|\]$/g, '') } : {}),
      ...(url.port ? { port: Number(url.port) } : {}),
    };
  }
  const sentinels = parseHostPortList(list);
  if (!sentinels) throw new Error(`REDIS_SENTINELS=${JSON.stringify(list)} must be host:port,host:port,…`);
  return {
    ...signIn,
    sentinels,
    name: master,
    ...(config.REDIS_SENTINEL_PASSWORD === undefined ? {} : { sentinelPassword: config.REDIS_SENTINEL_PASSWORD }),
    ...(tls ? { enableTLSForSentinelMode: true } : {}),
    // No `failoverDetector`: in ioredis 5 its subscriptions to the sentinels outlive quit(), which is how
    // BullMQ and the kit close a connection, and keep the process from exiting. A client still moves on a
    // failover: Redis drops its clients when its role changes, and the reconnect asks the sentinels again.
  };
}

function database(text: string): number {
  const db = Number(text);
  if (!Number.isInteger(db) || db < 0)
    throw new Error(`REDIS_URL's database must be a number (redis://host:port/<db>), not ${JSON.stringify(text)}`);
  return db;
}

function queryOptions(url: URL): Record<string, string | number> {
  const options: Record<string, string | number> = {};
  url.searchParams.forEach((value, key) => {
    options[key] = key === 'family' && /^\d+$/.test(value) ? Number(value) : value;
  });
  return options;
}
