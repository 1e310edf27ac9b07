// Where work the edge did not keep runs: with no span, or with tracing suppressed, so that it costs the
// instrumentations next to nothing and passes no trace context on (ADR 0054; sampling.ts makes the decision).
import {
  TraceFlags,
  isSpanContextValid,
  trace,
  type Context,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator, suppressTracing } from '@opentelemetry/core';

/**
 * The AsyncLocalStorage context manager, but a context holding a span that is not recorded and not sampled is
 * entered as untraced, without that span. Such a span is what the SDK answers for a root the sampler drops
 * (a dropped request's gRPC call), or for an unsampled parent, and what a suppressed tracer answers (an
 * invalid one). Kept, it would be passed on as an unsampled trace context, and the pg and ioredis
 * instrumentations would build a span's attributes under it; untraced, nothing is passed on (the next process
 * reads no context as not traced: EdgePropagator) and they make no span and do no work. Nothing that is
 * recorded changes.
 */
export class EdgeContextManager extends AsyncLocalStorageContextManager {
  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return super.with(withoutUnsampledSpan(ctx), fn, thisArg, ...args);
  }
}

function withoutUnsampledSpan(ctx: Context): Context {
  const span = trace.getSpan(ctx);
  if (span === undefined || span.isRecording()) return ctx;
  const spanContext = span.spanContext();
  if (isSpanContextValid(spanContext) && (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0) return ctx;
  return suppressTracing(trace.deleteSpan(ctx));
}

/**
 * W3C trace context, and the edge's rule for gRPC: a call that brings no trace context was not traced by its
 * caller (its request was dropped at the edge, or the caller is not traced at all), so what it does is not traced
 * either. instrumentation-grpc extracts the caller's context from the call's metadata and starts the server span
 * in it; suppressed, it starts none, and the handler runs untraced (pg and Redis included: see above). Other
 * carriers are as the W3C propagator reads them: an HTTP request with no trace context is the edge's to decide,
 * and an event or a job carrying none starts no span of the kit's.
 */
export class EdgePropagator implements TextMapPropagator {
  private readonly w3c = new W3CTraceContextPropagator();

  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    this.w3c.inject(ctx, carrier, setter);
  }

  extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
    const extracted = this.w3c.extract(ctx, carrier, getter);
    return isGrpcMetadata(carrier) && trace.getSpanContext(extracted) === undefined ? suppressTracing(extracted) : extracted;
  }

  fields(): string[] {
    return this.w3c.fields();
  }
}

// grpc-js's Metadata, recognised by its methods: the library is not loaded here (the preload loads no service code).
function isGrpcMetadata(carrier: unknown): boolean {
  const metadata = carrier as { getMap?: unknown; get?: unknown; internalRepr?: unknown } | null;
  return typeof metadata?.getMap === 'function' && typeof metadata.get === 'function' && metadata.internalRepr instanceof Map;
}
