import { eventEnvelopeSchema, type EventType } from '@clipit/contracts';
import { CONFIG, jetstream, LOGGER, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { SESSION_CACHE } from './session-cache.js';
import type { SessionCache } from './session-cache.js';

/** How often the connection to NATS is checked with a round trip. */
const PROBE_INTERVAL_MS = 1000;
/** Without an answer from NATS for this long, invalidations may be missed: the cache stops serving. */
const BUS_SILENCE_MS = 3000;
/** Between attempts to open the consumer when it could not be opened. */
const RETRY_MS = 2000;

/** The identity events after which a cached session may be wrong, and whose user they concern. */
const USER_OF: Partial<Record<EventType, (data: Record<string, unknown>) => unknown>> = {
  'session.ended': (data) => data['userId'],
  'user.sessions-ended': (data) => data['userId'],
  'user.updated': (data) => (data['user'] as Record<string, unknown> | undefined)?.['id'],
};

/**
 * Keeps every replica's session cache honest (ADR 0004). Each replica reads identity's events from the
 * JetStream stream with its own ordered consumer (as LiveHub does), from the moment it starts, and
 * forgets the sessions of a user on `session.ended` (a logout anywhere), `user.sessions-ended` (a
 * password reset) and `user.updated` (their data changed). Identity writes these in the transaction
 * of the change (the outbox), so none is lost; they arrive within the relay's delay, milliseconds.
 *
 * While the bus cannot be heard (disconnected, no round trip for BUS_SILENCE_MS, the consumer lost
 * its heartbeats or could not be opened) the cache is emptied and not used: every request asks
 * identity, as before the cache, until the bus is back. So a missed invalidation can never be served
 * for longer than the cache's TTL, whatever happens to NATS.
 */
@Injectable()
export class SessionInvalidations implements OnModuleInit, OnModuleDestroy {
  private messages: ConsumerMessages | undefined;
  private reading: Promise<void> | undefined;
  private probeTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private probing = false;
  private stopping = false;
  private connected = true;
  private consumerOk = false;
  private lastAnswer = 0;
  private serving = false;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(SESSION_CACHE) private readonly cache: SessionCache,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.GATEWAY_SESSION_CACHE_TTL_MS === 0) return;
    void this.watchConnection();
    this.lastAnswer = Date.now();
    this.probeTimer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS);
    this.probeTimer.unref();
    await this.open();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearInterval(this.probeTimer);
    clearTimeout(this.retryTimer);
    this.cache.suspend();
    await this.messages?.close().catch(() => undefined);
    await this.reading;
  }

  /** Opens the ordered consumer on identity's events; tries again later when it cannot. */
  private async open(): Promise<void> {
    if (this.stopping) return;
    try {
      const consumer = await jetstream(this.nc).consumers.get(this.config.EVENTS_STREAM, {
        // One filter subject (NATS 2.9 takes one): identity's events; the few others are skipped.
        filter_subjects: `${this.config.EVENTS_SUBJECT_PREFIX}.identity.>`,
        deliver_policy: DeliverPolicy.New,
      });
      const messages = await consumer.consume();
      this.messages = messages;
      this.consumerOk = true;
      this.lastAnswer = Date.now();
      void this.watchConsumer(messages);
      this.reading = this.read(messages);
      this.evaluate();
    } catch (err) {
      this.log.warn({ err }, 'session cache: cannot read identity events yet; every request asks identity meanwhile');
      this.consumerOk = false;
      this.evaluate();
      this.retryTimer = setTimeout(() => void this.open(), RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private async read(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const msg of messages) {
        this.lastAnswer = Date.now();
        if (!this.consumerOk) {
          this.consumerOk = true;
          this.evaluate();
        }
        this.apply(msg.subject, () => msg.json());
      }
    } catch (err) {
      if (!this.stopping) this.log.error({ err }, 'session cache: reading identity events failed');
    }
    if (this.stopping) return;
    // The iterator ended by itself: nothing is heard any more. Open a new consumer.
    this.consumerOk = false;
    this.evaluate();
    this.retryTimer = setTimeout(() => void this.open(), RETRY_MS);
    this.retryTimer.unref();
  }

  /** Forgets the cached sessions of the user an identity event concerns; anything unreadable empties the cache. */
  private apply(subject: string, body: () => unknown): void {
    try {
      const envelope = eventEnvelopeSchema.parse(body());
      const userOf = USER_OF[envelope.type as EventType];
      if (!userOf) return;
      const userId = userOf(envelope.data as Record<string, unknown>);
      if (typeof userId === 'string' && userId) this.cache.invalidateUser(userId);
      else this.cache.clear();
    } catch (err) {
      // Something we cannot read might have been an invalidation: forget everything rather than guess.
      this.cache.clear();
      this.log.warn({ err, subject }, 'session cache: an identity event could not be read; cache emptied');
    }
  }

  private async watchConsumer(messages: ConsumerMessages): Promise<void> {
    for await (const s of messages.status()) {
      if (
        s.type === 'heartbeats_missed' ||
        s.type === 'consumer_deleted' ||
        s.type === 'stream_not_found' ||
        s.type === 'consumer_not_found'
      ) {
        this.consumerOk = false;
        this.evaluate();
      } else if (s.type === 'ordered_consumer_recreated' || s.type === 'heartbeat') {
        this.consumerOk = true;
        this.lastAnswer = Date.now();
        this.evaluate();
      }
    }
  }

  private async watchConnection(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnecting' || s.type === 'staleConnection' || s.type === 'close') {
        this.connected = false;
        this.evaluate();
      } else if (s.type === 'reconnect') {
        this.connected = true;
        this.lastAnswer = Date.now();
        this.evaluate();
      }
    }
  }

  /** A round trip to NATS: proves the connection carries messages now (a paused server answers nothing). */
  private async probe(): Promise<void> {
    if (!this.probing && !this.nc.isClosed()) {
      this.probing = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), BUS_SILENCE_MS);
      });
      void Promise.race([this.nc.rtt(), timeout])
        .then(() => {
          this.lastAnswer = Date.now();
          this.evaluate();
        })
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(timer);
          this.probing = false;
        });
    }
    this.evaluate();
  }

  /** Serves from the cache only while everything that carries invalidations works. */
  private evaluate(): void {
    if (this.stopping) return;
    const ok = this.connected && this.consumerOk && Date.now() - this.lastAnswer < BUS_SILENCE_MS;
    if (ok === this.serving) return;
    this.serving = ok;
    if (ok) {
      this.cache.resume();
      this.log.info('session cache: identity events heard; signed-in requests are served from the cache');
    } else {
      this.cache.suspend();
      this.log.warn('session cache: identity events cannot be heard (NATS away); every signed-in request asks identity until they can');
    }
  }
}
