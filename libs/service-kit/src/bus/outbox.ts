import { subjectFor, type EventData, type EventEnvelope, type EventType } from '@clipit/contracts';
import { SpanKind, type Span } from '@opentelemetry/api';
import type { EntityManager } from 'typeorm';
import { activeTraceContext, inSpan } from '../context/trace-context.js';
import { noteAppendedEvent } from '../database/transactions.js';
import { buildEventEnvelope } from './envelope.js';

/** Postgres channel the relay listens on; NOTIFY is delivered only when the writing transaction commits. */
export const OUTBOX_CHANNEL = 'clipit_outbox';

/**
 * Writes an event to the outbox inside the caller's transaction. The event exists if and only if
 * the state change commits; the relay publishes it afterwards. Throws (and so rolls the
 * transaction back) when the data does not match the type's schema.
 *
 * Under a traced request it is a `create <subject>` span (ADR 0054), ended after the INSERT, whose
 * context the envelope carries: fixed in the row with the state change, so the relay's `send` and every
 * consumer's `process` join the request's trace however late they come.
 */
export async function appendEvent<T extends EventType>(
  manager: EntityManager,
  type: T,
  data: EventData<T>,
  subjectPrefix: string,
): Promise<EventEnvelope<T, EventData<T>>> {
  if (!manager.queryRunner?.isTransactionActive) {
    throw new Error(`appendEvent(${type}) must run inside a transaction, with the state change it reports`);
  }
  const subject = subjectFor(type, subjectPrefix);
  const parent = activeTraceContext();
  if (!parent) return insertEvent(manager, type, data, subject);
  return inSpan(
    parent,
    `create ${subject}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'create', 'messaging.destination.name': subject },
    },
    (span) => insertEvent(manager, type, data, subject, span),
  );
}

async function insertEvent<T extends EventType>(
  manager: EntityManager,
  type: T,
  data: EventData<T>,
  subject: string,
  span?: Span,
): Promise<EventEnvelope<T, EventData<T>>> {
  const envelope = buildEventEnvelope(type, data);
  span?.setAttribute('messaging.message.id', envelope.id);
  await manager.query('INSERT INTO outbox (id, type, subject, envelope) VALUES ($1, $2, $3, $4)', [
    envelope.id,
    type,
    subject,
    JSON.stringify(envelope),
  ]);
  await manager.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, type]);
  noteAppendedEvent({ id: envelope.id, type });
  return envelope;
}

/** Bound to one service's subject prefix, so callers only name the type and the data. */
export class Outbox {
  constructor(private readonly subjectPrefix: string) {}

  append<T extends EventType>(manager: EntityManager, type: T, data: EventData<T>): Promise<EventEnvelope<T, EventData<T>>> {
    return appendEvent(manager, type, data, this.subjectPrefix);
  }
}
