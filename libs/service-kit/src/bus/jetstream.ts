import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

export interface StreamNames {
  /** Stream holding every platform event, e.g. CLIPIT_EVENTS. */
  stream: string;
  /** Subject prefix of that stream, e.g. `events` (subjects `events.<source>.<type>.v<n>`). */
  subjectPrefix: string;
}

export function dlqStreamName(names: StreamNames): string {
  return `${names.stream}_DLQ`;
}

/** Every dead letter of the platform: the dead-letter stream's subjects, `dlq.<prefix>.>`. */
export function dlqSubjects(names: StreamNames): string {
  return `dlq.${names.subjectPrefix}.>`;
}

/** Dead letters of one consumer: `dlq.<prefix>.<consumer>.<type>`. */
export function dlqSubject(names: StreamNames, consumer: string, type: string): string {
  return `dlq.${names.subjectPrefix}.${consumer}.${type.replace(/[^\w-]/g, '_')}`;
}

/** The consumer that gave up on a dead letter, read back from its subject ({@link dlqSubject}). */
export function consumerOfDlqSubject(names: StreamNames, subject: string): string {
  return subject.slice(`dlq.${names.subjectPrefix}.`.length).split('.')[0] ?? '?';
}

/**
 * `url`: one server, or a cluster's nodes as a comma list. The client connects to any of them, and when the
 * one it is on goes away it moves to another within about `reconnectTimeWait`.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  const servers = url
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return connect({ servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 1000 });
}

export interface EventStreamOptions {
  /**
   * Copies a JetStream cluster keeps of each stream (EVENTS_STREAM_REPLICAS); an existing stream with
   * another count is scaled to it. Left out, a new stream gets the server's default (1) and an existing one
   * keeps its count. Durable consumers take the stream's count.
   */
  replicas?: number;
}

/**
 * Creates the event stream and its dead-letter stream when missing. Every service calls this at
 * boot, so the order in which services start does not matter.
 */
export async function ensureEventStreams(
  nc: NatsConnection,
  names: StreamNames,
  options: EventStreamOptions = {},
): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  const { replicas } = options;
  const wanted = [
    // Kept for good (max_age 0): read models are rebuilt from the start of the stream (ADR 0022).
    { name: names.stream, subjects: [`${names.subjectPrefix}.>`], max_age: 0 },
    { name: dlqStreamName(names), subjects: [dlqSubjects(names)], max_age: 30 * 24 * 3600 * 1e9 },
  ];
  for (const s of wanted) {
    let existing;
    try {
      existing = await jsm.streams.info(s.name);
    } catch {
      existing = undefined;
    }
    if (existing) {
      // A stream made under an older retention (the events stream once kept 7 days) takes the current one.
      if (existing.config.max_age !== s.max_age) await jsm.streams.update(s.name, { max_age: s.max_age }).catch(() => undefined);
      // Not swallowed as max_age is: a stream left at one copy while the operator asked for three would look safe
      // and lose its events with its node. A refusal (a single server, too few nodes up) stops the boot, named.
      if (replicas !== undefined && existing.config.num_replicas !== replicas) {
        const why = `could not go from ${existing.config.num_replicas} to ${replicas} replicas (EVENTS_STREAM_REPLICAS)`;
        await jsm.streams.update(s.name, { num_replicas: replicas }).catch((err: unknown) => {
          throw new Error(`stream ${s.name} ${why}: ${(err as Error).message}`, { cause: err });
        });
      }
      continue;
    }
    try {
      await jsm.streams.add({
        name: s.name,
        subjects: s.subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: s.max_age,
        ...(replicas !== undefined ? { num_replicas: replicas } : {}),
        duplicate_window: 2 * 60 * 1e9, // the relay's message ids make a republish within this window a no-op
      });
    } catch (err) {
      // Another service created it between our look and our add.
      await jsm.streams.info(s.name).catch(() => {
        // A single server refuses more than one copy: say which variable asked for them.
        if (replicas === undefined || replicas === 1) throw err;
        const why = `could not be made with ${replicas} replicas (EVENTS_STREAM_REPLICAS)`;
        throw new Error(`stream ${s.name} ${why}: ${(err as Error).message}`, { cause: err });
      });
    }
  }
  return jsm;
}

export { AckPolicy, jetstream, jetstreamManager };
export type { NatsConnection };
