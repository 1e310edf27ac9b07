import { context, trace } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/**
 * The four instrumentations (ADR 0054, section 3). The kit makes the bus's and BullMQ's spans itself.
 * - HTTP: outgoing calls only, and none with no span around it (a timer's). Incoming requests are the edge's
 *   (edge-server.ts): the instrumentation's server side would wrap every request before asking whether to trace it.
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

/** A gRPC call as a handler sees it: only its metadata is read here. */
interface ServerCall {
  metadata: { get(key: string): unknown[] };
}
type Handler = ((this: unknown, call: ServerCall, callback?: unknown) => unknown) & { __original?: Handler };
type Register = (this: { handlers: Map<string, { func: Handler }> }, name: string, ...rest: unknown[]) => unknown;

/**
 * instrumentation-grpc, for the calls of a trace only. The instrumentation wraps every handler and every client
 * method so that each call, traced or not, enters contexts, starts a span (one the sampler drops when there is no
 * trace), wraps or binds the call and its metadata: on a read through the gateway that was a tenth of the gateway's
 * and of submissions' CPU at 1 % (`npm run bench:tracing`, ADR 0054). So:
 * - a call made with no span active (a request the edge dropped, a timer's) runs the client method as grpc-js
 *   made it, and sends no trace context, as with tracing off;
 * - a caller sends `traceparent` only for a trace it records (EdgePropagator), so a call that brings none runs
 *   the handler as registered, with no span around it, as with tracing off;
 * - every other call goes through the instrumentation as before.
 */
export function untracedCallsUnwrapped(instrumentation: GrpcInstrumentation): GrpcInstrumentation {
  const patches = instrumentation as unknown as GrpcPatches;
  const patchServer = patches._patchServer.bind(instrumentation);
  const patchRequest = patches._patchClientRequestMethod.bind(instrumentation);
  const patchMethods = patches._getPatchedClientMethods.bind(instrumentation);
  patches._patchServer = () => callsWithContextOnly(patchServer());
  patches._patchClientRequestMethod = (lib, hasResponseStream, name) => callsInTraceOnly(patchRequest(lib, hasResponseStream, name));
  patches._getPatchedClientMethods = (lib) => callsInTraceOnly(patchMethods(lib));
  return instrumentation;
}

type ClientMethod = (this: unknown, ...args: unknown[]) => unknown;
/** The instrumentation's methods that make its patches (private in its types; called when grpc-js loads). */
interface GrpcPatches {
  _patchServer: () => (original: Register) => Register;
  _patchClientRequestMethod: (lib: unknown, hasResponseStream: boolean, name: string) => (original: ClientMethod) => ClientMethod;
  _getPatchedClientMethods: (lib: unknown) => (original: ClientMethod) => ClientMethod;
}

/** A client method as `patch` makes it, run only when a span is active (the context manager enters recorded ones only). */
export function callsInTraceOnly(patch: (original: ClientMethod) => ClientMethod): (original: ClientMethod) => ClientMethod {
  return (original) => {
    const instrumented = patch(original);
    const inTraceOnly: ClientMethod = function callInTraceOnly(this: unknown, ...args: unknown[]) {
      return trace.getSpan(context.active()) === undefined ? original.apply(this, args) : instrumented.apply(this, args);
    };
    // A generated method carries its path and (de)serialisers, which grpc-js and the instrumentation read.
    return Object.assign(inTraceOnly, original);
  };
}

/** Server.register as `patch` makes it, each handler then run through the patch's wrapper only for a call with `traceparent`. */
export function callsWithContextOnly(patch: (original: Register) => Register): (original: Register) => Register {
  return (original) => {
    const instrumented = patch(original);
    return function register(this: { handlers: Map<string, { func: Handler }> }, name: string, ...rest: unknown[]) {
      const registered = instrumented.call(this, name, ...rest);
      const handler = this.handlers.get(name);
      const traced = handler?.func;
      // The instrumentation's wrapper keeps the handler it wraps as `__original` (shimmer's rule).
      const plain = traced?.__original;
      if (handler !== undefined && traced !== undefined && typeof plain === 'function') {
        handler.func = function handleTracedOnly(this: unknown, call: ServerCall, callback?: unknown) {
          return call.metadata.get('traceparent').length > 0 ? traced.call(this, call, callback) : plain.call(this, call, callback);
        };
      }
      return registered;
    };
  };
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
