import { eventEnvelopeSchema, isEventType, parseEventData, subjectFor, type EventEnvelope, type EventType } from '@clipit/contracts';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { SpanKind, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { runWithCorrelation } from '../context/correlation.js';
import { carriedTraceContext, failSpan, inSpan } from '../context/trace-context.js';
import { runTransaction } from '../database/transactions.js';
import { eventsHandled } from '../metrics/metrics.js';
import type { EventHandler, HandlerRegistry } from './handlers.js';
import { CONSUMER_DEFAULTS } from './budgets.js';
import { dlqSubject, type StreamNames } from './jetstream.js';
import { isTransientDatabaseError } from './transient-errors.js';

export interface EventConsumerOptions {
  /** The durable consumer's name: the service's name, shared by all its replicas. */
  name: string;
  nc: NatsConnection;
  names: StreamNames;
  dataSource: DataSource;
  registry: HandlerRegistry;
  subscriptions: readonly EventType[];
  logger: Logger;
  /** Runs of the handler that fail on their own (not an outage) before the event is dead-lettered. */
  maxAttempts?: number;
  /** Delay before each retry after a handler failure, by attempt; the last value repeats. */
  backoffMs?: number[];
  /**
   * Delay before retrying an event that met a database outage, by how many outage errors came in a
   * row; the last value repeats, so it is also the cap. Outage retries never end and never count.
   */
  outageBackoffMs?: number[];
  /** A cap on every delay of `outageBackoffMs` (BUS_OUTAGE_BACKOFF_MAX_MS). */
  outageBackoffMaxMs?: number;
  /** How long the server waits for an ack before it redelivers (a crashed replica's event moves on). */
  ackWaitMs?: number;
  /** How long to wait for the server to confirm an ack; default the JetStream client's request timeout. */
  ackTimeoutMs?: number;
  /** Messages a replica pulls ahead; small values spread work across replicas more evenly. */
  batchSize?: number;
  /**
   * Runs after an event's transaction (its effects and inbox row) committed and before the ack is sent:
   * a service's `afterEvent` hook (see ServiceDefinition), and the seam fault tests use to kill the
   * process or stop NATS there and lose the ack.
   */
  afterCommit?: (event: EventEnvelope) => Promise<void> | void;
  /**
   * Told each event id this replica found applied (handled now, after `afterCommit`, or a duplicate):
   * the service's InboxWaiter, so a read waiting for it answers at once (ADR 0043).
   */
  onApplied?: (eventId: string) => void;
}

export type HandleOutcome = 'handled' | 'duplicate' | 'ignored' | 'retried' | 'dead-lettered';

/** Handler-failure counts a replica keeps (by stream sequence); the oldest go first past this size. */
const MAX_TRACKED = 10_000;

/**
 * One durable JetStream consumer per service. Each event is applied in one database transaction
 * together with its inbox row, and acked only after that commit, outside the handler's error path:
 * an event redelivered for any reason (a crash before the ack, a lost ack, an ack wait that ran out
 * while a slow replica still worked) finds its inbox row and is acked as a duplicate, changing nothing.
 *
 * What is guaranteed:
 * - an applied event is never dead-lettered; a failed ack is logged and the redelivery settles it;
 * - a database outage (see isTransientDatabaseError) is retried with capped backoff for as long as it
 *   lasts and never counts as an attempt; the server's max_deliver is unlimited, so nothing is stranded;
 * - a handler failing on its own is retried with backoff and dead-lettered after `maxAttempts` runs
 *   (counted by the replica that runs them), then terminated so the server never delivers it again;
 * - when the NATS connection comes back after an outage, consumption resumes by itself.
 */
export class EventConsumer {
  private readonly handlers: Map<EventType, EventHandler<EventType>>;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private readonly maxAttempts: number;
  private readonly backoffMs: number[];
  private readonly outageBackoffMs: number[];
  /** Handler failures by stream sequence: our own attempt count (the server's counts outages and lost acks too). */
  private readonly failures = new Map<number, number>();
  /** Outage errors in a row, across events: picks the outage backoff and keeps the log quiet. */
  private outageStreak = 0;

  constructor(private readonly opts: EventConsumerOptions) {
    this.handlers = opts.registry.validate(opts.subscriptions); // fails start-up on a missing or doubled handler
    this.maxAttempts = opts.maxAttempts ?? CONSUMER_DEFAULTS.maxAttempts;
    this.backoffMs = opts.backoffMs ?? [...CONSUMER_DEFAULTS.backoffMs];
    const cap = opts.outageBackoffMaxMs ?? Infinity;
    this.outageBackoffMs = (opts.outageBackoffMs ?? CONSUMER_DEFAULTS.outageBackoffMs).map((ms) => Math.min(ms, cap));
  }

  /** One filter subject when the service listens to one type (NATS 2.9 takes one), else the whole prefix. */
  private filterSubject(): string {
    const subs = this.opts.subscriptions;
    return subs.length === 1 ? subjectFor(subs[0]!, this.opts.names.subjectPrefix) : `${this.opts.names.subjectPrefix}.>`;
  }

  async start(): Promise<void> {
    this.stopping = false;
    const jsm = await jetstreamManager(this.opts.nc);
    const config = {
      durable_name: this.opts.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: this.filterSubject(),
      ack_wait: (this.opts.ackWaitMs ?? CONSUMER_DEFAULTS.ackWaitMs) * 1e6,
      // Unlimited: the server must never give up on an event by itself (an outage would strand it
      // unacked and undead-lettered). We count handler failures ourselves and dead-letter then.
      max_deliver: -1,
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
    const first = await this.consume();
    this.loop = this.run(first).catch((err: unknown) => this.opts.logger.error({ err }, `consumer ${this.opts.name} stopped`));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.messages?.close();
    await this.loop;
  }

  private async consume(): Promise<ConsumerMessages> {
    const consumer = await jetstream(this.opts.nc).consumers.get(this.opts.names.stream, this.opts.name);
    this.messages = await consumer.consume({ max_messages: this.opts.batchSize ?? 64, expires: CONSUMER_DEFAULTS.pullExpiresMs });
    return this.messages;
  }

  /**
   * Handles messages until stopped. Should the client's message iterator end or throw while we are
   * not stopping (a server restart it did not recover from), consumption starts again after a pause.
   */
  private async run(first: ConsumerMessages): Promise<void> {
    let messages: ConsumerMessages | undefined = first;
    let restarts = 0;
    while (!this.stopping) {
      try {
        messages ??= await this.consume();
        if (this.stopping) break;
        for await (const msg of messages) {
          restarts = 0;
          await this.process(msg).catch((err: unknown) => {
            // Left unacked: the server redelivers it after the ack wait.
            this.opts.logger.error({ err, subject: msg.subject }, `consumer ${this.opts.name}: could not process a message`);
          });
        }
        if (this.stopping) break;
        this.opts.logger.warn(`consumer ${this.opts.name}: the message stream ended; consuming again`);
      } catch (err) {
        if (this.stopping) break;
        this.opts.logger.warn({ err }, `consumer ${this.opts.name}: consuming failed; consuming again`);
      }
      await messages?.close().catch(() => undefined);
      messages = undefined;
      restarts += 1;
      await this.pause(Math.min(250 * 2 ** (restarts - 1), 5000));
    }
    await messages?.close().catch(() => undefined); // one opened while stop() was on its way
  }

  /** Waits, or less when stop() is called. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * Handles one delivery; exported for tests that drive it message by message. An event that carries a
   * trace context is handled in a `process <subject>` span under it (ADR 0054): the inbox transaction,
   * the handler (so the events it appends continue the trace), afterCommit and the ack. An event this
   * consumer has no handler for is acked with no span: a consumer of several types sees every event on
   * the prefix, and a span for each would put every service in every trace.
   */
  async process(msg: JsMsg): Promise<HandleOutcome> {
    let type = 'unknown';
    let envelope;
    try {
      envelope = eventEnvelopeSchema.parse(msg.json());
      type = envelope.type;
    } catch (err) {
      return this.deadLetter(msg, type, `not a valid event envelope: ${(err as Error).message}`, 1);
    }
    if (!isEventType(envelope.type) || !this.handlers.has(envelope.type)) {
      msg.ack(); // another service's event on the shared prefix
      return this.count(type, 'ignored');
    }
    const event = { ...envelope, type: envelope.type };
    const parent = carriedTraceContext(event);
    if (!parent) return this.apply(msg, event);
    return inSpan(
      parent,
      `process ${msg.subject}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'process',
          'messaging.destination.name': msg.subject,
          'messaging.consumer.group.name': this.opts.name,
          'messaging.message.id': event.id,
          'clipit.delivery_count': msg.info.deliveryCount,
          'clipit.stream_sequence': msg.info.streamSequence,
        },
      },
      async (span) => {
        const outcome = await this.apply(msg, event);
        span.setAttribute('clipit.outcome', outcome);
        return outcome;
      },
    );
  }

  /** Applies an event this consumer has a handler for: once, in one transaction with its inbox row. */
  private async apply(msg: JsMsg, envelope: EventEnvelope<EventType>): Promise<HandleOutcome> {
    const type = envelope.type;
    const seq = msg.info.streamSequence;
    const failed = this.failures.get(seq) ?? 0;
    if (failed >= this.maxAttempts) {
      // Dead-lettered before, but the server delivered it again (the term or the DLQ publish was
      // lost): park it again without running the handler; the DLQ publish deduplicates.
      return this.deadLetter(msg, type, 'dead-lettered earlier; delivered again', failed);
    }
    const handler = this.handlers.get(envelope.type)!;
    const eventType = envelope.type;
    const event = envelope;
    let outcome: 'handled' | 'duplicate';
    try {
      outcome = await runWithCorrelation(envelope.correlationId, () =>
        runTransaction(this.opts.dataSource, async (tx) => {
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
    } catch (err) {
      return this.failed(msg, event, err);
    }
    // Committed. Whatever happens to the ack from here on, the event is applied and stays out of
    // the dead-letter stream: a lost ack means a redelivery, which the inbox answers as a duplicate.
    this.outageStreak = 0;
    this.failures.delete(seq);
    if (outcome === 'handled' && this.opts.afterCommit) await this.opts.afterCommit(event);
    this.opts.onApplied?.(event.id);
    await this.ack(msg, event);
    this.opts.logger.debug({ eventId: event.id, type, outcome, deliveryCount: msg.info.deliveryCount }, 'event processed');
    return this.count(type, outcome);
  }

  /** Acks and waits for the server's confirmation; a failure is logged and left to the redelivery. */
  private async ack(msg: JsMsg, event: EventEnvelope): Promise<void> {
    try {
      await msg.ackAck(this.opts.ackTimeoutMs ? { timeout: this.opts.ackTimeoutMs } : undefined);
    } catch (err) {
      this.opts.logger.warn(
        { err, eventId: event.id, type: event.type, deliveryCount: msg.info.deliveryCount },
        'event applied but its ack failed; the server will redeliver it and the inbox will answer duplicate',
      );
    }
  }

  /** A handler's transaction failed: an outage is retried without counting, anything else is an attempt. */
  private async failed(msg: JsMsg, event: EventEnvelope, err: unknown): Promise<HandleOutcome> {
    const type = event.type;
    const span = trace.getActiveSpan(); // the event's process span, when it is traced
    if (span) failSpan(span, err);
    if (isTransientDatabaseError(err)) {
      this.outageStreak += 1;
      const delay = this.outageBackoffMs[Math.min(this.outageStreak - 1, this.outageBackoffMs.length - 1)] ?? 1000;
      if (this.outageStreak === 1 || this.outageStreak % 100 === 0) {
        this.opts.logger.warn(
          { err, eventId: event.id, type, outageErrors: this.outageStreak, retryInMs: delay },
          'database unavailable; event will be retried (outages never count toward dead-lettering)',
        );
      }
      msg.nak(delay);
      return this.count(type, 'retried');
    }
    this.outageStreak = 0;
    const seq = msg.info.streamSequence;
    const attempt = (this.failures.get(seq) ?? 0) + 1;
    this.track(seq, attempt);
    if (attempt >= this.maxAttempts) return this.deadLetter(msg, type, (err as Error).message, attempt);
    const delay = this.backoffMs[Math.min(attempt - 1, this.backoffMs.length - 1)] ?? 1000;
    this.opts.logger.warn({ err, eventId: event.id, type, attempt, retryInMs: delay }, 'event handler failed; will retry');
    msg.nak(delay);
    return this.count(type, 'retried');
  }

  private track(seq: number, attempts: number): void {
    this.failures.delete(seq); // re-inserted last, so eviction drops the oldest
    this.failures.set(seq, attempts);
    if (this.failures.size > MAX_TRACKED) this.failures.delete(this.failures.keys().next().value!);
  }

  private async deadLetter(msg: JsMsg, type: string, reason: string, attempts: number): Promise<HandleOutcome> {
    const h = natsHeaders();
    h.set('Clipit-Original-Subject', msg.subject);
    h.set('Clipit-Consumer', this.opts.name);
    h.set('Clipit-Attempts', String(attempts));
    h.set('Clipit-Deliveries', String(msg.info.deliveryCount));
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
    this.opts.logger.error({ type, reason, attempts, deliveries: msg.info.deliveryCount }, 'event dead-lettered');
    // Terminated: with unlimited max_deliver, this is what keeps the server from delivering it again.
    // No reason text: servers before 2.10.4 read "+TERM <reason>" as no ack at all and redeliver (the
    // reason is in the dead letter's headers anyway).
    msg.term();
    return this.count(type, 'dead-lettered');
  }

  private count(type: string, outcome: HandleOutcome): HandleOutcome {
    eventsHandled.inc({ consumer: this.opts.name, type, outcome });
    return outcome;
  }
}
