import { z } from 'zod';
import { traceFields } from '../trace.js';

/** Every event on the bus travels in this envelope; `data` is checked against the type's own schema. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  source: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1),
  /** The span that made the event (ADR 0054), when tracing is on; a malformed value is dropped, never dead-lettered. */
  ...traceFields,
  data: z.unknown(),
});

export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  /** A fact in the past tense, e.g. `user.registered`. */
  type: TType;
  /** The service that owns the fact. */
  source: string;
  occurredAt: string;
  correlationId: string;
  /**
   * W3C trace context of the span that made the event (the outbox's `create`, the publisher's `send`), so
   * every consumer's work joins the trace. Absent when tracing is off, and on events from before it.
   */
  traceparent?: string | undefined;
  tracestate?: string | undefined;
  data: TData;
}
