import { eventEnvelopeSchema, isEventType, parseEventData, subjectFor, type EventType } from '@clipit/contracts';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { runWithCorrelation } from '../context/correlation.js';
import { eventsHandled } from '../metrics/metrics.js';
import type { EventHandler, HandlerRegistry } from './handlers.js';
import { dlqSubject, type StreamNames } from './jetstream.js';

export interface EventConsumerOptions {
  /** The durable consumer's name: the service's name, shared by all its replicas. */
  name: string;
  nc: NatsConnection;
  names: StreamNames;
  dataSource: DataSource;
  registry: HandlerRegistry;
  subscriptions: readonly EventType[];
  logger: Logger;
  /** Attempts before an event goes to the dead-letter subject. */
  maxAttempts?: number;
  /** Delay before each retry, by attempt; the last value repeats. */
  backoffMs?: number[];
  /** How long the server waits for an ack before it redelivers (a crashed replica's event moves on). */
  ackWaitMs?: number;
  /** Messages a replica pulls ahead; small values spread work across replicas more evenly. */
  batchSize?: number;
}

export type HandleOutcome = 'handled' | 'duplicate' | 'ignored' | 'retried' | 'dead-lettered';

/**
 * One durable JetStream consumer per service. Each event is applied in one database transaction
 * together with its inbox row, then acked: an event redelivered after a crash finds its inbox row
 * and changes nothing. A failing event is retried with backoff, then dead-lettered and terminated.
 */
export class EventConsumer {
  private readonly handlers: Map<EventType, EventHandler<EventType>>;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private readonly maxAttempts: number;
  private readonly backoffMs: number[];

  constructor(private readonly opts: EventConsumerOptions) {
    this.handlers = opts.registry.validate(opts.subscriptions); // fails start-up on a missing or doubled handler
    this.maxAttempts = opts.maxAttempts ?? 5;
    this.backoffMs = opts.backoffMs ?? [1000, 5000, 15000, 30000];
  }

  /** One filter subject when the service listens to one type (NATS 2.9 takes one), else the whole prefix. */
  private filterSubject(): string {
    const subs = this.opts.subscriptions;
    return subs.length === 1 ? subjectFor(subs[0]!, this.opts.names.subjectPrefix) : `${this.opts.names.subjectPrefix}.>`;
  }

  async start(): Promise<void> {
    const jsm = await jetstreamManager(this.opts.nc);
    const config = {
      durable_name: this.opts.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: this.filterSubject(),
      ack_wait: (this.opts.ackWaitMs ?? 30_000) * 1e6,
      // The server gives up a little after us, so a replica dying on the last attempt still ends in the DLQ.
      max_deliver: this.maxAttempts + 2,
      max_ack_pending: 1000,
    };
    try {
      await jsm.consumers.info(this.opts.names.stream, this.opts.name);
      await jsm.consumers.update(this.opts.names.stream, this.opts.name, {
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
        filter_subject: config.filter_subject,
      });
    } catch {
      await jsm.consumers.add(this.opts.names.stream, config).catch(async (err: unknown) => {
        await jsm.consumers.info(this.opts.names.stream, this.opts.name).catch(() => {
          throw err;
        });
      });
    }
    const consumer = await jetstream(this.opts.nc).consumers.get(this.opts.names.stream, this.opts.name);
    this.messages = await consumer.consume({ max_messages: this.opts.batchSize ?? 64 });
    const messages = this.messages;
    this.loop = (async () => {
      for await (const msg of messages) await this.process(msg);
    })().catch((err: unknown) => this.opts.logger.error({ err }, `consumer ${this.opts.name} stopped`));
  }

  async stop(): Promise<void> {
    await this.messages?.close();
    await this.loop;
  }

  /** Handles one delivery; exported for tests that drive it message by message. */
  async process(msg: JsMsg): Promise<HandleOutcome> {
    let type = 'unknown';
    let envelope;
    try {
      envelope = eventEnvelopeSchema.parse(msg.json());
      type = envelope.type;
    } catch (err) {
      return this.deadLetter(msg, type, `not a valid event envelope: ${(err as Error).message}`);
    }
    if (!isEventType(envelope.type) || !this.handlers.has(envelope.type)) {
      msg.ack(); // another service's event on the shared prefix
      return this.count(type, 'ignored');
    }
    const handler = this.handlers.get(envelope.type)!;
    const eventType = envelope.type;
    const event = envelope;
    try {
      const outcome = await runWithCorrelation(envelope.correlationId, () =>
        this.opts.dataSource.transaction(async (tx) => {
          const inserted = (await tx.query(
            'INSERT INTO inbox (consumer, event_id, type) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id',
            [this.opts.name, event.id, eventType],
          )) as unknown[];
          if (inserted.length === 0) return 'duplicate' as const;
          const data = parseEventData(eventType, event.data);
          await handler({ ...event, type: eventType, data }, tx);
          return 'handled' as const;
        }),
      );
      await msg.ackAck();
      return this.count(type, outcome);
    } catch (err) {
      const attempt = msg.info.deliveryCount;
      if (attempt >= this.maxAttempts) return this.deadLetter(msg, type, (err as Error).message);
      const delay = this.backoffMs[Math.min(attempt - 1, this.backoffMs.length - 1)] ?? 1000;
      this.opts.logger.warn({ err, eventId: envelope.id, type, attempt, retryInMs: delay }, 'event handler failed; will retry');
      msg.nak(delay);
      return this.count(type, 'retried');
    }
  }

  private async deadLetter(msg: JsMsg, type: string, reason: string): Promise<HandleOutcome> {
    const h = natsHeaders();
    h.set('Clipit-Original-Subject', msg.subject);
    h.set('Clipit-Consumer', this.opts.name);
    h.set('Clipit-Attempts', String(msg.info.deliveryCount));
    h.set('Clipit-Error', reason.slice(0, 1000).replace(/[\r\n]+/g, ' '));
    try {
      await jetstream(this.opts.nc).publish(dlqSubject(this.opts.names, this.opts.name, type), msg.data, {
        headers: h,
        msgID: `${this.opts.name}:${msg.info.streamSequence}`,
      });
    } catch (err) {
      // Not parked yet: let the server redeliver and try the dead-letter publish again.
      this.opts.logger.error({ err, type }, 'could not publish to the dead-letter subject');
      msg.nak(this.backoffMs.at(-1) ?? 1000);
      return this.count(type, 'retried');
    }
    this.opts.logger.error({ type, reason, attempts: msg.info.deliveryCount }, 'event dead-lettered');
    msg.term(reason.slice(0, 200));
    return this.count(type, 'dead-lettered');
  }

  private count(type: string, outcome: HandleOutcome): HandleOutcome {
    eventsHandled.inc({ consumer: this.opts.name, type, outcome });
    return outcome;
  }
}
