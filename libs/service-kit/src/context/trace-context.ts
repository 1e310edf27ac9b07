import type { TraceFields } from '@clipit/contracts';
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanKind,
} from '@opentelemetry/api';

// The kit's own spans (ADR 0054): the outbox's `create`, the relay's and the publisher's `send`, the
// consumer's `process`, the queue workers' `process`. Only the OpenTelemetry API is used here: with no
// collector the preload registers nothing, every call below reaches the API's no-op, and nothing is
// written into an envelope or a job. The kit never starts a root span: work that no traced request
// caused (a timer, a poll, an event from before tracing) stays untraced.

const TRACER = '@clipit/service-kit';

/** The active context when it holds a span (a traced request's, a consumer's); undefined otherwise. */
export function activeTraceContext(): Context | undefined {
  const active = context.active();
  const span = trace.getSpanContext(active);
  return span && isSpanContextValid(span) ? active : undefined;
}

/** The context an envelope or a job carries, as the parent of the work it causes; undefined when it carries none. */
export function carriedTraceContext(fields: TraceFields): Context | undefined {
  if (!fields.traceparent) return undefined;
  const carrier: Record<string, string> = { traceparent: fields.traceparent };
  if (fields.tracestate) carrier['tracestate'] = fields.tracestate;
  const extracted = propagation.extract(ROOT_CONTEXT, carrier);
  const span = trace.getSpanContext(extracted);
  return span && isSpanContextValid(span) ? extracted : undefined;
}

/** The W3C fields of `ctx`'s span, to write into an envelope or a job: none when tracing is off or no span is active. */
export function traceFieldsOf(ctx: Context = context.active()): TraceFields {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  const fields: TraceFields = {};
  if (carrier['traceparent']) fields.traceparent = carrier['traceparent'];
  if (carrier['tracestate']) fields.tracestate = carrier['tracestate'];
  return fields;
}

/**
 * Runs `fn` in a new span, child of `parent` and active while `fn` runs (so what it causes joins the trace),
 * ended when `fn` settles; a throw is recorded on the span and thrown on.
 */
export async function inSpan<T>(
  parent: Context,
  name: string,
  options: { kind: SpanKind; attributes?: Attributes },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = trace.getTracer(TRACER).startSpan(name, options, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** Marks a span failed by `err` (the error's message is the status; the exception an event). */
export function failSpan(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/** Names the request's correlation id on the active span (the gateway's root), so a trace is found from a log line's id. */
export function tagCorrelationId(correlationId: string): void {
  trace.getActiveSpan()?.setAttribute('clipit.correlation_id', correlationId);
}
