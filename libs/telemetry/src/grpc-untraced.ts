// instrumentation-grpc, for the calls of a trace only (ADR 0054, "As built"): a call outside a trace runs as grpc-js
// runs it with tracing off.
import { context, trace } from '@opentelemetry/api';
import type { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';

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
function callsInTraceOnly(patch: (original: ClientMethod) => ClientMethod): (original: ClientMethod) => ClientMethod {
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
function callsWithContextOnly(patch: (original: Register) => Register): (original: Register) => Register {
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
