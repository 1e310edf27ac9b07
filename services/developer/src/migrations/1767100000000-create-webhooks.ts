import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints and their deliveries (ADR 0053). An endpoint's signing secrets are kept sealed
 * (AES-256-GCM under WEBHOOK_SECRET_KEY): signing needs the secret itself, so a hash would not do. A
 * delivery row is written in the transaction that applies the event, so it is the re-drive: the worker's
 * jobs are made from these rows, one attempt at a time, the earliest pending delivery of an endpoint first.
 */
export class CreateWebhooks1767100000000 implements MigrationInterface {
  name = 'CreateWebhooks1767100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        url text NOT NULL CHECK (length(url) <= 2048),
        events text[] NOT NULL,
        sealed_secret text NOT NULL,
        previous_sealed_secret text,
        previous_secret_until timestamptz,
        created_at timestamptz NOT NULL,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        CONSTRAINT webhook_endpoints_events_check CHECK (
          cardinality(events) > 0 AND events <@ ARRAY['submission.approved', 'submission.rejected', 'payout.sent',
            'campaign.progress', 'campaign.completed', 'appeal.decided']::text[]
        )
      )`);
    await q.query('CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id, created_at DESC, id DESC)');
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        seq bigserial NOT NULL,
        -- When the fact happened (the event's time; a redelivery's own): an endpoint's deliveries go in this
        -- order, then seq, whichever replica applied their events first.
        occurred_at timestamptz NOT NULL,
        message_id text NOT NULL,
        event_type text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        queued_attempt integer NOT NULL DEFAULT 0 CHECK (queued_attempt BETWEEN attempts AND attempts + 1),
        queued_at timestamptz,
        next_attempt_at timestamptz NOT NULL,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        latency_ms integer,
        response_excerpt text,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz
      )`);
    // Each endpoint's pending deliveries in order: the head is the one sent next.
    await q.query(
      "CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, occurred_at, seq) WHERE status = 'pending'",
    );
    // The delivery log, newest first, keyset-paged.
    await q.query('CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_deliveries');
    await q.query('DROP TABLE webhook_endpoints');
  }
}
