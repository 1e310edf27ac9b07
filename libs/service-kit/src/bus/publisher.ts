import { eventEnvelopeSchema, parseEventData, subjectFor, type EventData, type EventEnvelope, type EventType } from '@clipit/contracts';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanKind, type Context } from '@opentelemetry/api';
import { activeTraceContext, carriedTraceContext, inSpan } from '../context/trace-context.js';
import { eventsPublished } from '../metrics/metrics.js';
import { buildEventEnvelope, type EnvelopeOptions } from './envelope.js';
import type { StreamNames } from './jetstream.js';

export interface PublishResult<T extends EventType> {
  envelope: EventEnvelope<T, EventData<T>>;
  /** JetStream already held a message with this id (within its duplicate window): nothing new was stored. */
  duplicate: boolean;
  /** The stream sequence of the stored message (of the earlier one for a duplicate). */
  seq: number;
}

export interface EventPublisherOptions {
  nc: NatsConnection;
  names: StreamNames;
  /** How long a publish waits for JetStream's acknowledgement. */
  timeoutMs?: number;
}

/**
 * Publishes events straight to JetStream, for processes with no database and so no outbox (the media
 * worker). The envelope is the outbox's (same shape, same schema check); the event id is the message
 * id (`Nats-Msg-Id`). Give a {@link deterministicEventId} when the same fact may be published again
 * (a job retried after a crash): JetStream then stores it once within the stream's duplicate window,
 * and consumers' inboxes drop it after that. The publish resolves only once JetStream has stored the
 * message, so a caller that deletes something "after the event" really deletes after.
 *
 * Traced as the outbox and relay are (ADR 0054): a `send <subject>` span around the publish, under the
 * active span for an envelope built here (the envelope carries the send span's context), under the
 * envelope's own context for one built earlier; none when there is no such parent.
 */
export class EventPublisher {
  private readonly js: JetStreamClient;

  constructor(private readonly opts: EventPublisherOptions) {
    this.js = jetstream(opts.nc, { timeout: opts.timeoutMs ?? 5000 });
  }

  /** Builds the envelope (throws on data that does not match the type's schema) and publishes it. */
  async publish<T extends EventType>(type: T, data: EventData<T>, opts: EnvelopeOptions = {}): Promise<PublishResult<T>> {
    const subject = subjectFor(type, this.opts.names.subjectPrefix);
    const build = () => {
      const envelope = buildEventEnvelope(type, data, opts);
      eventEnvelopeSchema.parse(envelope);
      return envelope;
    };
    const parent = activeTraceContext();
    if (!parent) return this.send(subject, build());
    // Built inside the span, so the envelope carries the send span's context.
    return this.traced(parent, subject, () => this.send(subject, build()));
  }

  /**
   * Publishes an envelope built earlier, e.g. one kept (in a job's state) so a retry states the fact
   * exactly as the first attempt did, trace context included. Checked again, since it may have travelled
   * through storage.
   */
  async publishEnvelope<T extends EventType>(envelope: EventEnvelope<T, EventData<T>>): Promise<PublishResult<T>> {
    eventEnvelopeSchema.parse(envelope);
    parseEventData(envelope.type, envelope.data);
    const subject = subjectFor(envelope.type, this.opts.names.subjectPrefix);
    const parent = carriedTraceContext(envelope);
    if (!parent) return this.send(subject, envelope);
    return this.traced(parent, subject, () => this.send(subject, envelope));
  }

  private traced<T extends EventType>(parent: Context, subject: string, send: () => Promise<PublishResult<T>>): Promise<PublishResult<T>> {
    return inSpan(
      parent,
      `send ${subject}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject },
      },
      async (span) => {
        const result = await send();
        span.setAttributes({ 'messaging.message.id': result.envelope.id, 'clipit.duplicate': result.duplicate });
        return result;
      },
    );
  }

  private async send<T extends EventType>(subject: string, envelope: EventEnvelope<T, EventData<T>>): Promise<PublishResult<T>> {
    const ack = await this.js.publish(subject, JSON.stringify(envelope), {
      msgID: envelope.id,
      expect: { streamName: this.opts.names.stream },
    });
    if (!ack.duplicate) eventsPublished.inc({ type: envelope.type });
    return { envelope, duplicate: ack.duplicate, seq: ack.seq };
  }
}
