import { eventEnvelopeSchema, isEventType, parseEventData, type EventEnvelope, type EventType } from '@clipit/contracts';
import { jetstream, jetstreamManager, runTransaction, type NatsConnection } from '@clipit/service-kit';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { ProjectionStore } from './repositories/projection.store.js';
import { checkSchemaName, LIVE_SCHEMA, readModelDdl, SWAP_LOCK_KEY } from './repositories/read-model-schema.js';
import { Projections, type ProjectedEventType, type ProjectionHandlerTable } from './services/projections.service.js';

export interface ReplayOptions {
  dataSource: DataSource;
  nc: NatsConnection;
  stream: string;
  subjectPrefix: string;
  logger: Logger;
  /** The fresh schema to build (dropped first if a failed replay left it). Default `rm_rebuild`. */
  schema?: string;
  /** Put the rebuilt models live: the old ones are kept as `rm_old_<time>` until the next swap. */
  swap?: boolean;
  /** Events applied per transaction. */
  batchSize?: number;
  /** The live consumer's durable name (the service's name). */
  consumerName?: string;
}

export interface ReplayResult {
  schema: string;
  /** The last stream sequence the rebuilt models include. */
  throughSeq: number;
  applied: number;
  ignored: number;
  swapped: boolean;
  /** The schema the replaced models were renamed to (with `swap`). */
  retired?: string;
  ms: number;
}

/**
 * Rebuilds every read model from the start of the event stream into fresh tables, with the same
 * handlers the live consumer runs (so the same events give the same answers), and optionally swaps them
 * in. The swap takes the lock every live handler takes in shared mode, applies the events that arrived
 * during the rebuild, and renames the schemas in one transaction: no event is missed or applied to the
 * old models only, and readers see the old models until the commit and the new ones after it.
 */
export async function replayReadModels(opts: ReplayOptions): Promise<ReplayResult> {
  const started = Date.now();
  const schema = checkSchemaName(opts.schema ?? 'rm_rebuild');
  if (schema === LIVE_SCHEMA) throw new Error('a replay never writes into the live models');
  const { dataSource: db, logger } = opts;
  // No per-person locks: nothing else writes into the fresh schema.
  const projections = new Projections(new ProjectionStore(schema, { live: false }));
  const handlers = projections.handlers();

  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await runTransaction(db, async (tx) => {
    for (const statement of readModelDdl(schema)) await tx.query(statement);
  });

  const jsm = await jetstreamManager(opts.nc);
  const reader = new StreamReader(opts.nc, opts.stream, opts.subjectPrefix);
  const counts = { applied: 0, ignored: 0 };
  let through = 0;
  // Catch up in rounds: the stream keeps growing while we read.
  for (;;) {
    const last = (await jsm.streams.info(opts.stream)).state.last_seq;
    if (last <= through) break;
    through = await reader.readThrough(last, opts.batchSize ?? 500, (batch) => applyBatch(db, handlers, batch, counts));
    logger.info({ schema, through, last, ...counts }, 'replay: caught up to');
  }
  await runTransaction(db, (tx) => projections.finishReplay(tx));

  let retired: string | undefined;
  if (opts.swap) {
    retired = `rm_old_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
    await runTransaction(db, async (tx) => {
      // Live handlers hold this lock shared while they write: from here on none runs until we commit.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SWAP_LOCK_KEY]);
      const last = (await jsm.streams.info(opts.stream)).state.last_seq;
      if (last > through) {
        through = await reader.readThrough(last, opts.batchSize ?? 500, (batch) => applyEvents(tx, handlers, batch, counts));
        await projections.finishReplay(tx);
      }
      await tx.query(`DROP SCHEMA IF EXISTS ${retired} CASCADE`);
      await tx.query(`ALTER SCHEMA ${LIVE_SCHEMA} RENAME TO ${retired}`);
      await tx.query(`ALTER SCHEMA ${schema} RENAME TO ${LIVE_SCHEMA}`);
    });
    await dropRetiredExcept(db, retired);
    await startLiveConsumerAfter(jsm, opts, through);
    logger.info({ retired, through }, 'replay: rebuilt read models are live');
  }
  await reader.close();
  return {
    schema: opts.swap ? LIVE_SCHEMA : schema,
    throughSeq: through,
    ...counts,
    swapped: opts.swap === true,
    ...(retired ? { retired } : {}),
    ms: Date.now() - started,
  };
}

/**
 * A deployment whose live consumer does not exist yet (a new feed seeded by a replay) gets it starting
 * right after what the replay applied, so the service does not apply the whole stream again through its
 * inbox. An existing consumer keeps its position: what it delivers again is applied idempotently.
 */
async function startLiveConsumerAfter(
  jsm: Awaited<ReturnType<typeof jetstreamManager>>,
  opts: ReplayOptions,
  through: number,
): Promise<void> {
  const name = opts.consumerName ?? 'feed';
  const exists = await jsm.consumers.info(opts.stream, name).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await jsm.consumers.add(opts.stream, {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: through + 1,
    filter_subject: `${opts.subjectPrefix}.>`,
    ack_wait: 30_000 * 1e6,
    max_deliver: -1,
    max_ack_pending: 1000,
  });
}

/** Keeps one generation of retired models (to look at after a swap); older ones go. */
async function dropRetiredExcept(db: DataSource, keep: string): Promise<void> {
  const rows = (await db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm\\_old\\_%' AND nspname <> $1`, [keep])) as Array<{
    nspname: string;
  }>;
  for (const { nspname } of rows) await db.query(`DROP SCHEMA ${checkSchemaName(nspname)} CASCADE`);
}

interface Counts {
  applied: number;
  ignored: number;
}

async function applyBatch(db: DataSource, handlers: ProjectionHandlerTable, batch: EventEnvelope[], counts: Counts): Promise<void> {
  await runTransaction(db, (tx) => applyEvents(tx, handlers, batch, counts));
}

async function applyEvents(tx: EntityManager, handlers: ProjectionHandlerTable, batch: EventEnvelope[], counts: Counts): Promise<void> {
  for (const event of batch) {
    const handler = (handlers as Partial<Record<EventType, ProjectionHandlerTable[ProjectedEventType]>>)[event.type as EventType];
    if (!handler) {
      counts.ignored += 1;
      continue;
    }
    const data = parseEventData(event.type as ProjectedEventType, event.data);
    await (handler as (e: EventEnvelope, tx: EntityManager) => Promise<void>)({ ...event, data }, tx);
    counts.applied += 1;
  }
}

/** Reads the event stream in order from its first message with an ordered consumer, batch by batch. */
class StreamReader {
  private consumer: Awaited<ReturnType<ReturnType<typeof jetstream>['consumers']['get']>> | undefined;
  private position = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
    private readonly prefix: string,
  ) {}

  /** Hands every event up to stream sequence `last` to `apply`, in batches; returns the last sequence read. */
  async readThrough(last: number, batchSize: number, apply: (batch: EventEnvelope[]) => Promise<void>): Promise<number> {
    this.consumer ??= await jetstream(this.nc).consumers.get(this.stream, {
      filter_subjects: `${this.prefix}.>`,
      deliver_policy: DeliverPolicy.All,
    });
    while (this.position < last) {
      const batch: EventEnvelope[] = [];
      const messages = await this.consumer.fetch({ max_messages: Math.min(batchSize, last - this.position), expires: 5000 });
      for await (const msg of messages) {
        this.position = msg.info.streamSequence;
        const envelope = eventEnvelopeSchema.safeParse(msg.json());
        if (envelope.success && isEventType(envelope.data.type)) batch.push(envelope.data);
      }
      if (batch.length > 0) await apply(batch);
      if (batch.length === 0 && this.position < last) {
        // Nothing came within the wait: the rest of the range is other prefixes' subjects or deleted messages.
        const info = await this.consumer.info(true).catch(() => undefined);
        if (!info || info.num_pending === 0) break;
      }
    }
    return Math.max(this.position, last);
  }

  async close(): Promise<void> {
    await this.consumer?.delete().catch(() => undefined);
  }
}
