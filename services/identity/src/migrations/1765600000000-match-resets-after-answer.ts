import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reset requests are matched to an account after the answer (ADR 0032): the request writes one row with
 * what was asked (the handle, the address, the new password's hash) and nothing else, the same for every
 * request; the mail loop then matches it, and only a match gets a link. `processed_at` says it was matched;
 * the handle and address are cleared then, and the hash too unless a link went out.
 */
export class MatchResetsAfterAnswer1765600000000 implements MigrationInterface {
  name = 'MatchResetsAfterAnswer1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE password_reset_requests ADD COLUMN handle text, ADD COLUMN email text, ADD COLUMN processed_at timestamptz');
    await q.query('UPDATE password_reset_requests SET processed_at = created_at');
    await q.query('ALTER TABLE password_reset_requests DROP CONSTRAINT password_reset_requests_check');
    await q.query(`
      ALTER TABLE password_reset_requests
        ADD CONSTRAINT password_reset_requests_link CHECK ((user_id IS NULL) = (token_hash IS NULL)),
        ADD CONSTRAINT password_reset_requests_state CHECK (
          CASE WHEN processed_at IS NULL
            THEN user_id IS NULL AND password_hash IS NOT NULL AND handle IS NOT NULL AND email IS NOT NULL
            ELSE (token_hash IS NULL) = (password_hash IS NULL) AND handle IS NULL AND email IS NULL
          END)`);
    await q.query('CREATE INDEX password_reset_requests_pending ON password_reset_requests (created_at) WHERE processed_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX password_reset_requests_pending');
    await q.query('DELETE FROM password_reset_requests WHERE processed_at IS NULL');
    await q.query(
      'ALTER TABLE password_reset_requests DROP CONSTRAINT password_reset_requests_state, DROP CONSTRAINT password_reset_requests_link',
    );
    await q.query(`ALTER TABLE password_reset_requests ADD CONSTRAINT password_reset_requests_check
      CHECK ((user_id IS NULL) = (token_hash IS NULL) AND (token_hash IS NULL) = (password_hash IS NULL))`);
    await q.query('ALTER TABLE password_reset_requests DROP COLUMN processed_at, DROP COLUMN email, DROP COLUMN handle');
  }
}
