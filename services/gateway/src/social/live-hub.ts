import type { ServerResponse } from 'node:http';
import { eventEnvelopeSchema, parseEventData, subjectFor, type SocialLiveChangedV1 } from '@clipit/contracts';
import {
  CONFIG,
  jetstream,
  jetstreamManager,
  LOGGER,
  metricOnce,
  metricsRegistry,
  NATS_CONNECTION,
  type NatsConnection,
} from '@clipit/service-kit';
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { SOCIAL_CLIENT, type SocialClient } from '../clients.js';
import type { GatewayConfig } from '../config.js';
import { EventStreamClients, sseFrame, type StreamClient } from '../http/event-streams.js';
import { toPersonJson, type PersonJson } from './social.schemas.js';

/** One go-live or go-offline as the hub holds it: the stream sequence is its SSE id on every replica. */
export interface LiveChange {
  seq: number;
  streamer: PersonJson;
  isLive: boolean;
}

/** One open GET /api/live/stream. */
export interface LiveClient extends StreamClient {
  /** Changes that arrived while the opening snapshot was being read; sent after it, in order. */
  pending: LiveChange[] | undefined;
}

/** How many users one FollowersAmong call asks about (social caps it at 5,000). */
const BATCH = 5000;
/** A client this far behind on reading is dropped (its browser reconnects and replays what it missed). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const openStreams = metricOnce(
  'gateway_live_streams',
  () =>
    new Gauge({
      name: 'gateway_live_streams',
      help: 'Open GET /api/live/stream connections on this replica',
      registers: [metricsRegistry],
    }),
);

const frameOf = (change: LiveChange): string =>
  change.isLive ? sseFrame('live', change.streamer, change.seq) : sseFrame('offline', { id: change.streamer.id }, change.seq);

/**
 * The gateway's side of the live notifications. Every replica reads social.live-changed from the
 * JetStream stream (its own ordered consumer, from the moment it starts), so a go-live reaches the
 * browsers connected to any replica: the fan-out is NATS's, not one process's memory. For each change it
 * asks social which of the users connected here follow that streamer, and writes to their streams.
 *
 * The stream sequence is each event's SSE id. A replica keeps the last LIVE_REPLAY_EVENTS changes, so a
 * browser reconnecting with Last-Event-ID (to this or any replica that has been up since) gets exactly
 * the ones it missed; older than that, it gets a fresh snapshot of who is live instead.
 */
@Injectable()
export class LiveHub implements OnModuleInit, OnModuleDestroy {
  private readonly clients: EventStreamClients<LiveClient>;
  private readonly recent: LiveChange[] = [];
  /** Every change after this sequence has been seen here (and is in `recent` unless evicted). */
  private replayableAfter = Number.POSITIVE_INFINITY;
  /** The last sequence of the stream this replica has read up to. */
  private lastSeq = 0;
  private messages: ConsumerMessages | undefined;
  private reading: Promise<void> | undefined;
  private stopping = false;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(SOCIAL_CLIENT) private readonly social: SocialClient,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.clients = new EventStreamClients({ name: 'live hub', gauge: openStreams, log, maxBufferedBytes: MAX_BUFFERED_BYTES });
  }

  async onModuleInit(): Promise<void> {
    const stream = this.config.EVENTS_STREAM;
    // Start right after what the stream holds now: everything from here on is seen, in order.
    const info = await (await jetstreamManager(this.nc)).streams.info(stream);
    const start = info.state.last_seq + 1;
    this.replayableAfter = start - 1;
    this.lastSeq = start - 1;
    const consumer = await jetstream(this.nc).consumers.get(stream, {
      filter_subjects: subjectFor('social.live-changed', this.config.EVENTS_SUBJECT_PREFIX),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: start,
    });
    this.messages = await consumer.consume();
    const messages = this.messages;
    this.reading = (async () => {
      for await (const msg of messages) {
        const seq = msg.info.streamSequence;
        try {
          const envelope = eventEnvelopeSchema.parse(msg.json());
          const data = parseEventData('social.live-changed', envelope.data);
          await this.dispatch(this.remember(seq, data));
        } catch (err) {
          this.log.warn({ err, seq }, 'live hub: a live change could not be delivered');
        }
      }
    })().catch((err: unknown) => {
      if (!this.stopping) this.log.error({ err }, 'live hub: reading live changes stopped');
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.clients.dropAll();
    await this.messages?.close().catch(() => undefined);
    await this.reading;
  }

  /** How many streams `userId` holds open on this replica. */
  openFor(userId: string): number {
    return this.clients.openFor(userId);
  }

  /**
   * Registers an open stream and sends what it should see first: the changes after `lastEventId` when
   * they can all be replayed, else a snapshot of the followed streamers live now. Changes arriving
   * meanwhile wait and follow it, so the browser never sees an older state after a newer one.
   */
  async open(userId: string, res: ServerResponse, lastEventId: number | undefined): Promise<LiveClient> {
    const client: LiveClient = { userId, res, pending: [], closed: false, timers: [] };
    this.clients.add(client);
    try {
      const canReplay = lastEventId !== undefined && lastEventId >= this.replayableAfter && lastEventId <= this.lastSeq;
      if (canReplay) {
        const missed = this.recent.filter((c) => c.seq > lastEventId);
        const followed = await this.followedAmong(userId, [...new Set(missed.map((c) => c.streamer.id))]);
        for (const change of missed) if (followed.has(change.streamer.id)) this.clients.write(client, frameOf(change));
      } else {
        const seq = this.lastSeq;
        const { streamers } = await this.social.listLiveFollowed({ userId });
        this.clients.write(
          client,
          sseFrame(
            'snapshot',
            streamers.map((s) => toPersonJson(s.streamer!)),
            seq > 0 ? seq : undefined,
          ),
        );
      }
    } catch (err) {
      this.clients.drop(client);
      throw err;
    }
    const waiting = client.pending ?? [];
    client.pending = undefined;
    for (const change of waiting) this.clients.write(client, frameOf(change));
    // The browser comes back with Last-Event-ID after the longest life, and its session is checked again.
    this.clients.keepAlive(client, this.config.LIVE_HEARTBEAT_SECONDS, this.config.LIVE_STREAM_MAX_SECONDS);
    return client;
  }

  private remember(seq: number, data: SocialLiveChangedV1): LiveChange {
    const change: LiveChange = { seq, streamer: data.streamer, isLive: data.isLive };
    this.recent.push(change);
    this.lastSeq = Math.max(this.lastSeq, seq);
    while (this.recent.length > this.config.LIVE_REPLAY_EVENTS) this.replayableAfter = this.recent.shift()!.seq;
    return change;
  }

  /** Sends the change to the followers of its streamer among the users connected here. */
  private async dispatch(change: LiveChange): Promise<void> {
    const connected = this.clients.users();
    for (let i = 0; i < connected.length; i += BATCH) {
      const { userIds } = await this.social.followersAmong({ streamerId: change.streamer.id, userIds: connected.slice(i, i + BATCH) });
      for (const userId of userIds) {
        for (const client of this.clients.of(userId)) {
          if (client.pending) client.pending.push(change);
          else this.clients.write(client, frameOf(change));
        }
      }
    }
  }

  private async followedAmong(userId: string, streamerIds: string[]): Promise<Set<string>> {
    const followed = new Set<string>();
    for (const streamerId of streamerIds) {
      const { userIds } = await this.social.followersAmong({ streamerId, userIds: [userId] });
      if (userIds.length > 0) followed.add(streamerId);
    }
    return followed;
  }
}
