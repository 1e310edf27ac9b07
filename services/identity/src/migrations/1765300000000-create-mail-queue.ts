import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mail identity sends (ADR 0031): written in the transaction of what it tells, delivered by the mail loop,
 * tried again with backoff while the relay is away. A sent message keeps no body (a link in it may carry a
 * token); one whose purpose expired unsent is dropped.
 */
export class CreateMailQueue1765300000000 implements MigrationInterface {
  name = 'CreateMailQueue1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mail_queue (
        id uuid PRIMARY KEY,
        kind text NOT NULL,
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        sent_at timestamptz,
        dropped_at timestamptz
      )`);
    await q.query('CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE sent_at IS NULL AND dropped_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE mail_queue');
  }
}
