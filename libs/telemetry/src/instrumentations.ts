import type { Instrumentation } from '@opentelemetry/instrumentation';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { untracedCallsUnwrapped } from './grpc-untraced.js';

/**
 * The four instrumentations (ADR 0054, section 3). The kit makes the bus's and BullMQ's spans itself.
 * - HTTP: outgoing calls only, and none with no span around it (a timer's). Incoming requests are the edge's
 *   (edge-server.ts): the instrumentation's server side would wrap every request before asking whether to trace it.
 * - gRPC: the calls of a trace only (grpc-untraced.ts); any other runs as with tracing off.
 * - pg: no parameters (they hold user data) and no span outside a traced piece of work.
 * - ioredis: no span outside a traced piece of work (BullMQ's blocking polls, the rate limiter's counts),
 *   and a statement that never carries a value.
 */
export function createInstrumentations(): Instrumentation[] {
  // Made disabled: registerInstrumentations enables them once they have the tracer provider.
  const enabled = false;
  return [
    new HttpInstrumentation({
      enabled,
      disableIncomingRequestInstrumentation: true,
      requireParentforOutgoingSpans: true,
    }),
    untracedCallsUnwrapped(new GrpcInstrumentation({ enabled })),
    new PgInstrumentation({ enabled, requireParentSpan: true, enhancedDatabaseReporting: false }),
    new IORedisInstrumentation({ enabled, requireParentSpan: true, dbStatementSerializer: redisStatement }),
  ];
}

/** `/health/live`, `/health/ready` and `/metrics`, whatever their query (asked of every request: no copy made). */
export function isProbeOrScrape(url: string | undefined): boolean {
  if (url === undefined) return false;
  return url.startsWith('/health/') || (url.startsWith('/metrics') && (url.length === 8 || url[8] === '?'));
}

// Commands whose arguments are all keys, and those with no key at all; any other command's first
// argument is its one key (GET, SET, HSET, EXPIRE, ZADD, …). Counted, never shown.
const ALL_KEYS = new Set(['del', 'exists', 'mget', 'pfcount', 'pfmerge', 'sdiff', 'sinter', 'sunion', 'touch', 'unlink', 'watch']);
const NO_KEY = new Set([
  ...'auth client cluster command config dbsize discard echo exec flushall flushdb hello info'.split(' '),
  ...'multi ping psubscribe publish punsubscribe quit readonly role script select subscribe time unsubscribe unwatch'.split(' '),
]);

/** `db.statement` of a Redis command: its name and how many keys it touches (`evalsha 3 keys`). */
export function redisStatement(command: string, args: readonly unknown[]): string {
  const name = command.toLowerCase();
  let keys: number;
  if (['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro'].includes(name)) keys = Number(args[1]) || 0;
  else if (ALL_KEYS.has(name)) keys = args.length;
  else if (name === 'mset' || name === 'msetnx') keys = Math.floor(args.length / 2);
  else if (['blpop', 'brpop', 'bzpopmin', 'bzpopmax'].includes(name)) keys = Math.max(args.length - 1, 0);
  else if (NO_KEY.has(name) || args.length === 0) keys = 0;
  else keys = 1;
  return `${name} ${keys} ${keys === 1 ? 'key' : 'keys'}`;
}
