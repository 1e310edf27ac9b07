import { createHash, randomUUID } from 'node:crypto';
import { eventCatalog, parseEventData, type EventData, type EventEnvelope, type EventType } from '@clipit/contracts';
import { correlationIdOrNew } from '../context/correlation.js';
import { traceFieldsOf } from '../context/trace-context.js';

export interface EnvelopeOptions {
  /** The event id; a fresh random UUID unless the caller derives one ({@link deterministicEventId}). */
  id?: string;
  /** Defaults to the current correlation id, or a fresh one outside any request. */
  correlationId?: string;
  /** Defaults to now. */
  occurredAt?: Date;
}

/**
 * The envelope every event travels in, its data checked against the type's one schema (a ZodError
 * names the bad fields). The outbox and the EventPublisher both build envelopes here, so they agree.
 * It carries the active span's trace context, when there is one (the outbox's `create`, the publisher's
 * `send`, a worker's `process`), so its consumers join the trace (ADR 0054); none when tracing is off.
 */
export function buildEventEnvelope<T extends EventType>(
  type: T,
  data: EventData<T>,
  opts: EnvelopeOptions = {},
): EventEnvelope<T, EventData<T>> {
  if (opts.id !== undefined && !UUID.test(opts.id))
    throw new Error(`event id must be a UUID (got ${JSON.stringify(opts.id).slice(0, 60)})`);
  return {
    id: opts.id ?? randomUUID(),
    type,
    source: eventCatalog[type].source,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    correlationId: opts.correlationId ?? correlationIdOrNew(),
    ...traceFieldsOf(),
    data: parseEventData(type, data),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The namespace of CLIP IT's derived event ids (a fixed random UUID; changing it changes every derived id). */
export const EVENT_ID_NAMESPACE = '6f1c8e2a-3b5d-4c7e-9a1f-0d2b4e6f8a90';

/**
 * A UUID (version 5 layout: SHA-1 of a namespace and a name) derived from the parts that identify one
 * fact, e.g. `deterministicEventId('media.processed', videoId)`. A process that states the same fact
 * again (a retried job, a restarted worker) gets the same id, so JetStream drops the duplicate within
 * its window (Nats-Msg-Id) and every consumer's inbox drops it after that. The parts are encoded
 * unambiguously: ('a', 'bc') and ('ab', 'c') give different ids.
 */
export function deterministicEventId(...parts: string[]): string {
  if (parts.length === 0) throw new Error('deterministicEventId needs at least one part');
  const namespace = Buffer.from(EVENT_ID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(namespace).update(JSON.stringify(parts), 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
