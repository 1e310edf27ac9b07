import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { EndpointRow } from '../domain/webhook-rows.js';

interface Row {
  id: string;
  user_id: string;
  url: string;
  events: string[];
  sealed_secret: string;
  previous_sealed_secret: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  pending: number | null;
}

const toRow = (r: Row): EndpointRow => ({
  id: r.id,
  userId: r.user_id,
  url: r.url,
  events: r.events,
  sealedSecret: r.sealed_secret,
  previousSealedSecret: r.previous_sealed_secret,
  previousSecretUntil: r.previous_secret_until,
  createdAt: r.created_at,
  failingSince: r.failing_since,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  pendingDeliveries: r.pending ?? 0,
});

const SELECT = `SELECT e.*, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending
  FROM webhook_endpoints e`;

/** The only code reading or writing `webhook_endpoints`; writes take the caller's transaction. */
@Injectable()
export class WebhookEndpointRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Holds the user's endpoints still until the transaction ends (a transaction-level advisory lock on the user). */
  async lockUser(tx: EntityManager, userId: string): Promise<void> {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || $1, 0))", [userId]);
  }

  async countOf(tx: EntityManager, userId: string): Promise<number> {
    const [row] = (await tx.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE user_id = $1', [userId])) as { n: number }[];
    return row!.n;
  }

  async insert(tx: EntityManager, e: Pick<EndpointRow, 'id' | 'userId' | 'url' | 'events' | 'sealedSecret' | 'createdAt'>): Promise<void> {
    await tx.query('INSERT INTO webhook_endpoints (id, user_id, url, events, sealed_secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      e.id,
      e.userId,
      e.url,
      e.events,
      e.sealedSecret,
      e.createdAt,
    ]);
  }

  /** The user's endpoints, newest first. */
  async listOf(userId: string): Promise<EndpointRow[]> {
    const rows = (await this.dataSource.query(`${SELECT} WHERE e.user_id = $1 ORDER BY e.created_at DESC, e.id DESC`, [userId])) as Row[];
    return rows.map(toRow);
  }

  /** The user's endpoint `id`, locked for the transaction when `tx` is given. */
  async findOwned(userId: string, id: string, tx?: EntityManager): Promise<EndpointRow | undefined> {
    const [row] = (await (tx ?? this.dataSource.manager).query(
      `${SELECT} WHERE e.id = $1 AND e.user_id = $2${tx ? ' FOR UPDATE OF e' : ''}`,
      [id, userId],
    )) as Row[];
    return row ? toRow(row) : undefined;
  }

  /** Endpoint `id` (anyone's), locked for the transaction. */
  async lock(tx: EntityManager, id: string): Promise<EndpointRow | undefined> {
    const [row] = (await tx.query(`${SELECT} WHERE e.id = $1 FOR UPDATE OF e`, [id])) as Row[];
    return row ? toRow(row) : undefined;
  }

  /** The endpoints of `userId` subscribed to `event`, disabled ones too (their deliveries wait for an enable). */
  async subscribedTo(tx: EntityManager, userId: string, event: string): Promise<Pick<EndpointRow, 'id'>[]> {
    return (await tx.query('SELECT id FROM webhook_endpoints WHERE user_id = $1 AND $2 = ANY(events) ORDER BY id', [userId, event])) as {
      id: string;
    }[];
  }

  async delete(tx: EntityManager, id: string): Promise<void> {
    await tx.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
  }

  async rotate(tx: EntityManager, id: string, sealedSecret: string, previous: string, previousUntil: Date): Promise<void> {
    await tx.query(
      'UPDATE webhook_endpoints SET sealed_secret = $2, previous_sealed_secret = $3, previous_secret_until = $4 WHERE id = $1',
      [id, sealedSecret, previous, previousUntil],
    );
  }

  /** Its deliveries fail: since `since` (kept when already failing). */
  async markFailing(tx: EntityManager, id: string, since: Date): Promise<void> {
    await tx.query('UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1', [id, since]);
  }

  async markSucceeding(tx: EntityManager, id: string): Promise<void> {
    await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [id]);
  }

  async disable(tx: EntityManager, id: string, at: Date, reason: string): Promise<void> {
    await tx.query('UPDATE webhook_endpoints SET disabled_at = $2, disabled_reason = $3 WHERE id = $1', [id, at, reason]);
  }

  async enable(tx: EntityManager, id: string): Promise<void> {
    await tx.query('UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = $1', [id]);
  }
}
