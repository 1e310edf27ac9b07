import { Metadata } from '@grpc/grpc-js';
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SamplingDecision,
  trace,
  TraceFlags,
  type Context,
} from '@opentelemetry/api';
import { isTracingSuppressed, suppressTracing } from '@opentelemetry/core';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { EdgeContextManager, EdgePropagator } from './edge-context.js';

const KEPT = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
});

describe('EdgeContextManager', () => {
  const manager = new EdgeContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => context.disable());

  const seen = (ctx: Context) =>
    context.with(ctx, () => ({ span: trace.getSpan(context.active()) !== undefined, untraced: isTracingSuppressed(context.active()) }));

  it('enters a context whose span is not recorded and not sampled untraced, without the span', () => {
    // What a suppressed tracer answers, and what the SDK answers for a root it dropped or an unsampled parent.
    const invalid = trace.setSpan(suppressTracing(ROOT_CONTEXT), trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
    const dropped = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.NONE,
    });
    expect([seen(invalid), seen(dropped), seen(trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(INVALID_SPAN_CONTEXT)))]).toEqual([
      { span: false, untraced: true },
      { span: false, untraced: true },
      { span: false, untraced: true },
    ]);
  });

  it('leaves a sampled parent, a recording span and a context with no span as they are', () => {
    expect(seen(KEPT)).toEqual({ span: true, untraced: false });
    expect(seen(suppressTracing(KEPT))).toEqual({ span: true, untraced: true });
    expect(seen(ROOT_CONTEXT)).toEqual({ span: false, untraced: false });
    // Recorded but not sampled (a RECORD_ONLY decision): still this process's span.
    const recordOnly = new TracerProvider({
      sampler: { shouldSample: () => ({ decision: SamplingDecision.RECORD }), toString: () => 'record only' },
    });
    const span = recordOnly.getTracer('test').startSpan('recorded');
    expect([span.isRecording(), span.spanContext().traceFlags]).toEqual([true, TraceFlags.NONE]);
    expect(seen(trace.setSpan(ROOT_CONTEXT, span))).toEqual({ span: true, untraced: false });
    span.end();
  });

  it('passes no trace context on from a span it entered untraced', () => {
    const dropped = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.NONE,
    });
    const carrier: Record<string, string> = {};
    context.with(dropped, () => new EdgePropagator().inject(context.active(), carrier, defaultTextMapSetter));
    expect(carrier).toEqual({});
  });
});

describe('EdgePropagator', () => {
  const propagator = new EdgePropagator();
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  // How instrumentation-grpc reads a call's metadata.
  const grpcGetter = {
    get: (carrier: Metadata, key: string) => carrier.get(key).map(String),
    keys: (carrier: Metadata) => Object.keys(carrier.getMap()),
  };
  const metadata = (entries: Record<string, string>) => {
    const m = new Metadata();
    for (const [k, v] of Object.entries(entries)) m.set(k, v);
    return m;
  };
  const read = (ctx: Context) => ({ traceId: trace.getSpanContext(ctx)?.traceId, untraced: isTracingSuppressed(ctx) });

  it('reads a gRPC call that brings no trace context (or an unreadable one) as untraced: its caller did not trace it', () => {
    expect(read(propagator.extract(ROOT_CONTEXT, metadata({ 'x-correlation-id': 'c-1' }), grpcGetter))).toEqual({
      traceId: undefined,
      untraced: true,
    });
    expect(read(propagator.extract(ROOT_CONTEXT, metadata({ traceparent: 'garbage' }), grpcGetter))).toEqual({
      traceId: undefined,
      untraced: true,
    });
    expect(read(propagator.extract(ROOT_CONTEXT, metadata({ traceparent }), grpcGetter))).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      untraced: false,
    });
  });

  it('reads HTTP headers, events and jobs as the W3C propagator does: no trace context is no decision', () => {
    expect(read(propagator.extract(ROOT_CONTEXT, {}, defaultTextMapGetter))).toEqual({ traceId: undefined, untraced: false });
    expect(read(propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter))).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      untraced: false,
    });
  });

  it('writes trace context only, as the W3C propagator does', () => {
    const carrier: Record<string, string> = {};
    propagator.inject(KEPT, carrier, defaultTextMapSetter);
    expect(carrier).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    const untraced: Record<string, string> = {};
    propagator.inject(suppressTracing(KEPT), untraced, defaultTextMapSetter);
    expect(untraced).toEqual({});
    expect(propagator.fields()).toEqual(['traceparent', 'tracestate']);
  });
});
