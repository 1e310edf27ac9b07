import { context, isSpanContextValid, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { Queue } from 'bullmq';

// A job carries its producer's trace context in its data (ADR 0054), as it carries the correlation id:
// `traceparent` and `tracestate`, the contracts' traceFields, which every job schema spreads. Only the
// OpenTelemetry API is used: with tracing off there is never an active span, and the data is left alone.
// BullMQ's own `telemetry` option is not used: it also traces every worker's polls and lock renewals,
// each a root span.

interface JobTraceFields {
  traceparent: string;
  tracestate?: string;
}

/**
 * Makes the queue's `add` and `addBulk` a `send <queue>` span under the active one, each job's data carrying
 * the span's context; with no active span (a scheduler, a reconciler) they add the data as it is.
 */
export function traceAdds<D, N extends string>(queue: Queue<D, unknown, N>): void {
  const add = queue.add.bind(queue);
  const addBulk = queue.addBulk.bind(queue);
  queue.add = (name, data, opts) =>
    sending(queue.name, { 'clipit.job.name': name, ...(opts?.jobId ? { 'messaging.message.id': opts.jobId } : {}) }, (fields) =>
      add(name, withTraceFields(data, fields), opts),
    );
  queue.addBulk = (jobs) =>
    sending(queue.name, { 'messaging.batch.message_count': jobs.length }, (fields) =>
      addBulk(fields ? jobs.map((job) => ({ ...job, data: withTraceFields(job.data, fields) })) : jobs),
    );
}

async function sending<T>(queue: string, attributes: Attributes, add: (fields: JobTraceFields | undefined) => Promise<T>): Promise<T> {
  const parent = context.active();
  const active = trace.getSpanContext(parent);
  if (!active || !isSpanContextValid(active)) return add(undefined);
  const span = trace.getTracer('@clipit/media-queue').startSpan(
    `send ${queue}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { 'messaging.system': 'bullmq', 'messaging.operation.type': 'send', 'messaging.destination.name': queue, ...attributes },
    },
    parent,
  );
  const inSpan = trace.setSpan(parent, span);
  try {
    const carrier: Record<string, string> = {};
    propagation.inject(inSpan, carrier);
    const traceparent = carrier['traceparent'];
    const tracestate = carrier['tracestate'];
    const fields = traceparent ? { traceparent, ...(tracestate ? { tracestate } : {}) } : undefined;
    return await context.with(inSpan, () => add(fields));
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    throw err;
  } finally {
    span.end();
  }
}

/** The job's data with the trace fields beside its own fields (a job's data is a JSON object). */
function withTraceFields<D>(data: D, fields: JobTraceFields | undefined): D {
  return fields && typeof data === 'object' && data !== null && !Array.isArray(data) ? { ...data, ...fields } : data;
}
