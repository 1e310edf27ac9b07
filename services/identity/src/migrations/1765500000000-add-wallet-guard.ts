import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guarded wallet changes and the sessions list (ADR 0032): when an account's existing wallet was last
 * replaced (rewards holds payouts to it for 72 hours), and when each session was last seen (kept to
 * within SESSION_SEEN_INTERVAL, so resolving a session stays a read almost always). How a session was
 * signed in (`password` or `x`) goes in its `sess` document; sessions made before this have none.
 */
export class AddWalletGuard1765500000000 implements MigrationInterface {
  name = 'AddWalletGuard1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN wallet_changed_at timestamptz');
    await q.query('ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE sessions DROP COLUMN last_seen_at');
    await q.query('ALTER TABLE users DROP COLUMN wallet_changed_at');
  }
}
