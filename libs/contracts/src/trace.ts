import { z } from 'zod';

/**
 * W3C trace context (`00-<trace id>-<parent span id>-<flags>`, 55 characters). Version ff is invalid by the
 * specification; a later version is read by its first four fields, as the specification asks.
 */
export const TRACEPARENT_PATTERN = /^(?!ff)[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

/** The most of a `tracestate` carried on (the W3C limit is 32 members; vendors' entries are short). */
export const TRACESTATE_MAX_LENGTH = 512;

/**
 * The trace context an event envelope or a job carries from its producer to its consumer (ADR 0054): the
 * span that made it, so the consumer's work joins the same trace. Both optional, since tracing is off
 * unless a collector is configured and nothing is written then. Lenient: a malformed value is dropped
 * (`.catch(undefined)`), never a reason to refuse the event or the job.
 */
export const traceFields = {
  traceparent: z.string().regex(TRACEPARENT_PATTERN).optional().catch(undefined),
  tracestate: z.string().max(TRACESTATE_MAX_LENGTH).optional().catch(undefined),
};

export const traceFieldsSchema = z.object(traceFields);

export interface TraceFields {
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

/** The trace fields a job's data carries, read leniently: none when the data is not an object or they are malformed. */
export function jobTraceFields(data: unknown): TraceFields {
  const parsed = traceFieldsSchema.safeParse(data);
  return parsed.success ? parsed.data : {};
}
