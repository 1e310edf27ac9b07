import type { TraceFields } from '@clipit/contracts';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanKind } from '@opentelemetry/api';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { carriedTraceContext, inSpan } from '../context/trace-context.js';
import { runTransaction } from '../database/transactions.js';
import { eventsPublished, outboxPending } from '../metrics/metrics.js';
import { OUTBOX_CHANNEL } from './outbox.js';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  /** Used for a dedicated LISTEN connection, so a commit wakes the relay at once. */
  databaseUrl: string;
  nc: NatsConnection;
  stream: string;
  logger: Logger;
  /** Fallback poll when no notification arrives (missed while reconnecting, or from another replica). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Published rows are kept this long for inspection, then removed. */
  retentionHours?: number;
}

interface OutboxRow {
  id: string;
  type: string;
  subject: string;
  envelope: unknown;
  /** Publications tried before this one. */
  attempts: number;
}

/**
 * Publishes committed outbox rows to JetStream, oldest first, with the event id as the message id:
 * a row published but not yet marked (crash, lost connection) is published again and JetStream
 * drops the duplicate. Replicas share the work through `FOR UPDATE SKIP LOCKED`. An envelope goes out
 * as it was committed, never rewritten; one that carries a trace context is published in a `send`
 * span under it (ADR 0054), however long after the write, and one that carries none in no span.
 */
export class OutboxRelay {
  private readonly js: JetStreamClient;
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly opts: OutboxRelayOptions) {
    this.js = jetstream(opts.nc);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
    this.timer = setInterval(() => this.kick(), this.opts.pollIntervalMs ?? 1000);
    this.pruneTimer = setInterval(() => void this.prune(), 3600_000);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.pruneTimer);
    await this.running;
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  /** Asks for a drain; calls that arrive while one runs make it go round once more. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().then(
      () => undefined,
      () => undefined,
    );
    void this.running.finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Publishes until the outbox is empty or a publish fails; answers how many were published. */
  async drain(): Promise<number> {
    let total = 0;
    try {
      if (!this.listener) await this.listen();
      for (;;) {
        const { published, more } = await this.publishBatch();
        total += published;
        if (!more || this.stopped) break;
      }
      const [{ count }] = (await this.opts.dataSource.query('SELECT count(*)::int AS count FROM outbox WHERE published_at IS NULL')) as [
        { count: number },
      ];
      outboxPending.set(count);
    } catch (err) {
      this.opts.logger.warn({ err }, 'outbox relay: drain failed; will retry');
    }
    return total;
  }

  private async publishBatch(): Promise<{ published: number; more: boolean }> {
    const batchSize = this.opts.batchSize ?? 100;
    return runTransaction(this.opts.dataSource, async (m) => {
      const rows = (await m.query(
        'SELECT id, type, subject, envelope, attempts FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED',
        [batchSize],
      )) as OutboxRow[];
      const done: string[] = [];
      let failure: { id: string; error: string } | undefined;
      for (const row of rows) {
        try {
          await this.publish(row);
          done.push(row.id);
          eventsPublished.inc({ type: row.type });
        } catch (err) {
          failure = { id: row.id, error: (err as Error).message };
          break; // keep order: nothing after a failed row goes out before it
        }
      }
      if (done.length > 0) {
        await m.query('UPDATE outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::uuid[])', [done]);
      }
      if (failure) {
        await m.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [failure.id, failure.error]);
        this.opts.logger.warn({ eventId: failure.id, error: failure.error }, 'outbox relay: publish failed');
      }
      return { published: done.length, more: !failure && rows.length === batchSize };
    });
  }

  /** One row to JetStream, resolved at its ack; in a `send` span under the envelope's context when it carries one. */
  private async publish(row: OutboxRow): Promise<void> {
    const send = () =>
      this.js.publish(row.subject, JSON.stringify(row.envelope), { msgID: row.id, expect: { streamName: this.opts.stream } });
    const parent = typeof row.envelope === 'object' && row.envelope !== null ? carriedTraceContext(row.envelope as TraceFields) : undefined;
    if (!parent) {
      await send();
      return;
    }
    await inSpan(
      parent,
      `send ${row.subject}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'send',
          'messaging.destination.name': row.subject,
          'messaging.message.id': row.id,
          'clipit.outbox.attempt': row.attempts + 1,
        },
      },
      send,
    );
  }

  private async listen(): Promise<void> {
    // pg is loaded with the database, not with the kit: a service without one never needs it (ADR 0046).
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: this.opts.databaseUrl });
    client.on('notification', () => this.kick());
    client.on('error', (err) => {
      this.opts.logger.warn({ err }, 'outbox relay: LISTEN connection lost; polling until it is back');
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
    });
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    this.listener = client;
  }

  private async prune(): Promise<void> {
    const hours = this.opts.retentionHours ?? 72;
    try {
      await this.opts.dataSource.query(`DELETE FROM outbox WHERE published_at < now() - make_interval(hours => $1)`, [hours]);
    } catch (err) {
      this.opts.logger.warn({ err }, 'outbox relay: prune failed');
    }
  }
}
