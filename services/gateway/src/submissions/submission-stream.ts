import { subjectFor, type EventType } from '@clipit/contracts';
import { CONFIG, LOGGER, metricOnce, metricsRegistry, NATS_CONNECTION, jetstream, type NatsConnection } from '@clipit/service-kit';
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { HttpException, HttpStatus, Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import type { GatewayConfig } from '../config.js';
import { EventStreamClients, openEventStream, sseFrame, type StreamClient } from '../http/event-streams.js';

export const TOO_MANY_SUBMISSION_STREAMS = 'Too many open submission streams for this account; close a tab and try again';

/** The events that change what GET /api/submissions answers its owner: each carries the submission's snapshot. */
export const SUBMISSION_CHANGES = [
  'submission.created',
  'submission.video-changed',
  'submission.approved',
  'submission.rejected',
  'submission.feed-changed',
] as const satisfies readonly EventType[];
export type SubmissionChange = (typeof SUBMISSION_CHANGES)[number];

/** What one `submission` frame says: which submission changed, how, and its status and video state now. */
export interface SubmissionChangeJson {
  id: string;
  change: SubmissionChange;
  status: string;
  videoState: string;
}

/** A client this far behind on reading is dropped (its browser reconnects and reads the list again). */
const MAX_BUFFERED_BYTES = 256 * 1024;

const openStreams = metricOnce(
  'gateway_submission_streams',
  () =>
    new Gauge({
      name: 'gateway_submission_streams',
      help: 'Open GET /api/submissions/stream connections on this replica',
      registers: [metricsRegistry],
    }),
);

/** The subject of every `submission.*` event (`<prefix>.submissions.submission.<change>.v<n>`). */
export function submissionEventsSubject(prefix: string): string {
  return subjectFor('submission.created', prefix).replace(/\.submission\.created\.v\d+$/, '.submission.>');
}

/** The owner and the frame of a submission event, or nothing for an event that is not one of SUBMISSION_CHANGES. */
export function changeOf(type: string, data: unknown): { userId: string; change: SubmissionChangeJson } | undefined {
  if (!(SUBMISSION_CHANGES as readonly string[]).includes(type)) return undefined;
  const s = (data as { submission?: Record<string, unknown> } | null)?.submission;
  const { id, userId, status, videoState } = s ?? {};
  if (typeof id !== 'string' || typeof userId !== 'string' || typeof status !== 'string' || typeof videoState !== 'string')
    return undefined;
  return { userId, change: { id, change: type as SubmissionChange, status, videoState } };
}

/**
 * GET /api/submissions/stream: tells the signed-in owner, as it happens, that one of their submissions
 * changed (created, its video processing, ready or refused, approved, rejected, in or out of the feed), so
 * the page reads GET /api/submissions then instead of asking it over and over while a video is processed.
 *
 * Every replica reads those events from the JetStream stream (its own ordered consumer, from the moment
 * it starts) and writes each to the streams its owner holds open here: the fan-out is NATS's. The events
 * are published once submissions has committed them, so the list read after a frame shows the change.
 * Frames carry no id and nothing is replayed: a browser that (re)connects reads the list again, which
 * covers whatever happened while it was away, and keeps a slow poll as a safety net.
 */
@Injectable()
export class SubmissionStreams implements OnModuleInit, OnModuleDestroy {
  private readonly clients: EventStreamClients<StreamClient>;
  private messages: ConsumerMessages | undefined;
  private reading: Promise<void> | undefined;
  private stopping = false;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.clients = new EventStreamClients({ name: 'submission streams', gauge: openStreams, log, maxBufferedBytes: MAX_BUFFERED_BYTES });
  }

  async onModuleInit(): Promise<void> {
    const consumer = await jetstream(this.nc).consumers.get(this.config.EVENTS_STREAM, {
      // One filter (a server before 2.10 takes no list): every submission.* event of submissions, sorted by changeOf.
      filter_subjects: submissionEventsSubject(this.config.EVENTS_SUBJECT_PREFIX),
      deliver_policy: DeliverPolicy.New,
    });
    this.messages = await consumer.consume();
    const messages = this.messages;
    // The subject names the event's type: the other submission.* events (fingerprints, matches, holds, …),
    // and every event while no browser has a stream open here, are passed over without reading their bodies.
    const changes = new Map<string, SubmissionChange>(SUBMISSION_CHANGES.map((t) => [subjectFor(t, this.config.EVENTS_SUBJECT_PREFIX), t]));
    this.reading = (async () => {
      for await (const msg of messages) {
        const type = changes.get(msg.subject);
        if (type === undefined || this.clients.empty) continue;
        try {
          const { data } = msg.json<{ data?: unknown }>();
          const found = changeOf(type, data);
          if (found) this.dispatch(found.userId, found.change);
        } catch (err) {
          this.log.warn({ err, seq: msg.info.streamSequence }, 'submission streams: an event could not be read');
        }
      }
    })().catch((err: unknown) => {
      if (!this.stopping) this.log.error({ err }, 'submission streams: reading submission events stopped');
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.clients.dropAll();
    await this.messages?.close().catch(() => undefined);
    await this.reading;
  }

  /** Opens the user's stream: registered before its head is sent, so every change after the browser's `open` reaches it. */
  open(userId: string, reply: FastifyReply): void {
    if (this.clients.openFor(userId) >= this.config.LIVE_STREAMS_PER_USER)
      throw new HttpException(TOO_MANY_SUBMISSION_STREAMS, HttpStatus.TOO_MANY_REQUESTS);
    const client: StreamClient = { userId, res: reply.raw, closed: false, timers: [] };
    this.clients.add(client);
    openEventStream(reply);
    this.clients.keepAlive(client, this.config.LIVE_HEARTBEAT_SECONDS, this.config.LIVE_STREAM_MAX_SECONDS);
  }

  private dispatch(userId: string, change: SubmissionChangeJson): void {
    const frame = sseFrame('submission', change);
    for (const client of this.clients.of(userId)) this.clients.write(client, frame);
  }
}
