import { randomUUID } from 'node:crypto';
import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AttemptOutcome, DeliveryRow, DueDelivery } from '../domain/webhook-rows.js';

const toRow = (r: Record<string, unknown>): DeliveryRow => ({
  id: r['id'] as string,
  endpointId: r['endpoint_id'] as string,
  messageId: r['message_id'] as string,
  eventType: r['event_type'] as string,
  payload: r['payload'] as string,
  status: r['status'] as DeliveryRow['status'],
  attempts: r['attempts'] as number,
  queuedAttempt: r['queued_attempt'] as number,
  queuedAt: r['queued_at'] as Date | null,
  nextAttemptAt: r['next_attempt_at'] as Date,
  lastAttemptAt: r['last_attempt_at'] as Date | null,
  lastStatusCode: r['last_status_code'] as number | null,
  lastError: r['last_error'] as string | null,
  latencyMs: r['latency_ms'] as number | null,
  responseExcerpt: r['response_excerpt'] as string | null,
  createdAt: r['created_at'] as Date,
  deliveredAt: r['delivered_at'] as Date | null,
});

const toDue = (r: Record<string, unknown>): DueDelivery => ({
  id: r['id'] as string,
  endpointId: r['endpoint_id'] as string,
  attempt: r['attempt'] as number,
  url: r['url'] as string,
  messageId: r['message_id'] as string,
  payload: r['payload'] as string,
  sealedSecret: r['sealed_secret'] as string,
  previousSealedSecret: r['previous_sealed_secret'] as string | null,
  previousSecretUntil: r['previous_secret_until'] as Date | null,
});

/**
 * The only code reading or writing `webhook_deliveries`; writes take the caller's transaction. Each
 * endpoint's pending deliveries go in the order of their facts (`occurred_at`, then `seq`), one at a time:
 * only the head is ever queued.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A pending delivery, due at `at`; it goes after the endpoint's deliveries of facts before `occurredAt`. */
  async insert(
    tx: EntityManager,
    d: { endpointId: string; messageId: string; eventType: string; payload: string; occurredAt: Date; at: Date },
  ): Promise<string> {
    const id = randomUUID();
    await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event_type, payload, status, occurred_at, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $7)`,
      [id, d.endpointId, d.messageId, d.eventType, d.payload, d.occurredAt, d.at],
    );
    return id;
  }

  /**
   * The head of every enabled endpoint whose next attempt is due and not queued yet: at most `limit`, the
   * longest waiting first. The endpoint's secrets come along for the job.
   */
  async due(now: Date, limit: number): Promise<DueDelivery[]> {
    const rows = (await this.dataSource.query(
      `SELECT d.id, d.endpoint_id, d.attempts + 1 AS attempt, e.url, d.message_id, d.payload, e.sealed_secret,
              e.previous_sealed_secret, e.previous_secret_until
         FROM webhook_endpoints e
         CROSS JOIN LATERAL (
           SELECT * FROM webhook_deliveries h WHERE h.endpoint_id = e.id AND h.status = 'pending' ORDER BY h.occurred_at, h.seq LIMIT 1
         ) d
        WHERE e.disabled_at IS NULL AND d.next_attempt_at <= $1 AND d.queued_attempt = d.attempts
        ORDER BY d.next_attempt_at
        LIMIT $2`,
      [now, limit],
    )) as Record<string, unknown>[];
    return rows.map(toDue);
  }

  /** Notes that `attempt` of `id` is queued (only if nothing else did meanwhile). */
  async markQueued(id: string, attempt: number, at: Date): Promise<void> {
    await this.dataSource.query(
      "UPDATE webhook_deliveries SET queued_attempt = $2, queued_at = $3 WHERE id = $1 AND status = 'pending' AND attempts = $2 - 1",
      [id, attempt, at],
    );
  }

  /** Heads queued before `before` with no outcome since: their job may be lost (their ids and attempts). */
  async queuedLongAgo(before: Date, limit: number): Promise<DueDelivery[]> {
    const rows = (await this.dataSource.query(
      `SELECT d.id, d.endpoint_id, d.queued_attempt AS attempt, e.url, d.message_id, d.payload, e.sealed_secret,
              e.previous_sealed_secret, e.previous_secret_until
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.queued_attempt = d.attempts + 1 AND d.queued_at < $1 AND e.disabled_at IS NULL
        ORDER BY d.queued_at LIMIT $2`,
      [before, limit],
    )) as Record<string, unknown>[];
    return rows.map(toDue);
  }

  async touchQueued(id: string, at: Date): Promise<void> {
    await this.dataSource.query('UPDATE webhook_deliveries SET queued_at = $2 WHERE id = $1', [id, at]);
  }

  async lock(tx: EntityManager, id: string): Promise<DeliveryRow | undefined> {
    const [row] = (await tx.query('SELECT * FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [id])) as Record<string, unknown>[];
    return row ? toRow(row) : undefined;
  }

  /** Records an attempt's outcome: delivered, or still pending with its next attempt at `next`. */
  async recordAttempt(tx: EntityManager, id: string, o: AttemptOutcome, next: Date | null): Promise<void> {
    await tx.query(
      `UPDATE webhook_deliveries
          SET attempts = $2, queued_attempt = $2, queued_at = NULL, last_attempt_at = $3::timestamptz, last_status_code = $4,
              last_error = $5, latency_ms = $6, response_excerpt = $7,
              status = CASE WHEN $8::boolean THEN 'delivered' ELSE 'pending' END,
              delivered_at = CASE WHEN $8::boolean THEN $3::timestamptz ELSE NULL END,
              next_attempt_at = COALESCE($9::timestamptz, next_attempt_at)
        WHERE id = $1`,
      [id, o.attempt, o.at, o.statusCode, o.error, o.latencyMs, o.responseExcerpt, o.ok, next],
    );
  }

  /** Makes the endpoint's head due now (an enable sends what waited at once). */
  async headDueNow(tx: EntityManager, endpointId: string, now: Date): Promise<void> {
    await tx.query(
      `UPDATE webhook_deliveries SET next_attempt_at = $2
        WHERE id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' ORDER BY occurred_at, seq LIMIT 1)`,
      [endpointId, now],
    );
  }

  /** The endpoint's log, newest first: `limit` deliveries strictly before `before`. */
  async page(endpointId: string, limit: number, before: KeysetPosition | undefined): Promise<DeliveryRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = $1
          AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
        ORDER BY created_at DESC, id DESC LIMIT $4`,
      [endpointId, before?.createdAt ?? null, before?.id ?? null, limit],
    )) as Record<string, unknown>[];
    return rows.map(toRow);
  }

  async findOf(endpointId: string, id: string): Promise<DeliveryRow | undefined> {
    const [row] = (await this.dataSource.query('SELECT * FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2', [
      id,
      endpointId,
    ])) as Record<string, unknown>[];
    return row ? toRow(row) : undefined;
  }
}
