import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox (events written in the same transaction as the state change that caused them) and the
 * inbox (event ids a consumer already applied). Every service that produces or consumes events
 * lists this migration first.
 */
export class CreateEventBusTables1763700000000 implements MigrationInterface {
  name = 'CreateEventBusTables1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        subject text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query('CREATE INDEX outbox_unpublished ON outbox (seq) WHERE published_at IS NULL');
    await q.query('CREATE INDEX outbox_published_at ON outbox (published_at) WHERE published_at IS NOT NULL');
    await q.query(`
      CREATE TABLE inbox (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        type text NOT NULL,
        handled_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE inbox');
    await q.query('DROP TABLE outbox');
  }
}
