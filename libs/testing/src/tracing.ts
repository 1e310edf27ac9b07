// A real OpenTelemetry tracer for tests, in process: the SDK's provider with an in-memory exporter, the
// AsyncLocalStorage context manager and the W3C propagator, registered as the API's globals as the
// telemetry preload registers them (ADR 0054). The SDK is imported when a test starts it, so the files
// that never trace do not load it.
import { context, propagation, trace, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

export type { ReadableSpan } from '@opentelemetry/sdk-trace';

export interface InMemoryTracing {
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** The ended spans called `name`. */
  named(name: string): ReadableSpan[];
  /** Forgets the spans ended so far. */
  reset(): void;
  /** Runs `fn` inside a fresh recording root span, as a traced request would reach the code under test. */
  traced<T>(fn: (span: Span) => Promise<T> | T, name?: string): Promise<T>;
  /** Ends tracing and unregisters the globals: the API is a no-op again. */
  stop(): Promise<void>;
}

/** Whether `child`'s parent is `parent` (same trace, parent span id). */
export function isChildOf(child: ReadableSpan, parent: ReadableSpan | Span): boolean {
  const p = parent.spanContext();
  return child.parentSpanContext?.traceId === p.traceId && child.parentSpanContext.spanId === p.spanId;
}

/** Registers the tracer, context manager and propagator; one at a time per test file. */
export async function startInMemoryTracing(): Promise<InMemoryTracing> {
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ]);
  const exporter = new sdk.InMemorySpanExporter();
  const provider = new sdk.TracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor({ exporter })] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const registered =
    trace.setGlobalTracerProvider(provider) &&
    context.setGlobalContextManager(contextManager) &&
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (!registered) throw new Error('tracing is registered already in this test file: stop() the earlier one first');
  const tracer = provider.getTracer('@clipit/testing');
  return {
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((s) => s.name === name),
    reset: () => exporter.reset(),
    traced: (fn, name = 'test request') =>
      tracer.startActiveSpan(name, { root: true }, async (span) => {
        try {
          return await fn(span);
        } finally {
          span.end();
        }
      }),
    stop: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
