/**
 * Tells an outage from a failure. An event whose handler throws because the database is unreachable,
 * shutting down, out of connections or asked the transaction to be retried says nothing about the
 * event: it is retried for as long as that lasts and never counts toward dead-lettering. Anything
 * else is the handler's own failure (a bug, a broken rule) and may end in the dead-letter stream.
 */

/** SQLSTATE codes (besides class 08, connection exceptions) that mean "try again later". */
const TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '53300', // too_many_connections
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** Socket-level errors from Node: the server or the network is not there right now. */
const TRANSIENT_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Messages of pg, pg-pool and TypeORM that carry no code but mean the connection went away. */
const TRANSIENT_MESSAGES = [
  /connection terminated/i, // pg: "Connection terminated unexpectedly", "... due to connection timeout"
  /timeout exceeded when trying to connect/i, // pg-pool: no connection could be had in time
  /timeout expired/i, // pg: connectionTimeoutMillis
  /connection (is )?not (open|connected)/i,
  /client has encountered a connection error/i,
  /terminating connection due to administrator command/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /sorry, too many clients already/i,
];

function isTransientOne(err: Record<string, unknown>): boolean {
  const code = typeof err.code === 'string' ? err.code : undefined;
  if (code) {
    if (/^08[0-9A-Z]{3}$/.test(code) || TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SYSTEM_CODES.has(code)) return true;
  }
  const message = typeof err.message === 'string' ? err.message : '';
  return TRANSIENT_MESSAGES.some((re) => re.test(message));
}

/**
 * True when the error (or what it wraps: TypeORM's `driverError`, a `cause`, the errors of an
 * AggregateError as Node gives for a refused dual-stack connect) means the database is unreachable
 * or transiently failing.
 */
export function isTransientDatabaseError(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const e = current as Record<string, unknown>;
    if (isTransientOne(e)) return true;
    queue.push(e.driverError, e.cause);
    if (Array.isArray(e.errors)) queue.push(...(e.errors as unknown[]));
  }
  return false;
}
