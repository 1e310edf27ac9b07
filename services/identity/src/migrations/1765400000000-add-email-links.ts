import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Links identity mails (ADR 0031): when an account's e-mail address was verified; the one-time links that
 * verify an address and that apply a password reset. A link's token is kept only as its SHA-256; a reset
 * request carries the new password's hash (never the password), and a request that matched no account is
 * kept too (no user, no token), so every request writes the same and counts towards the limits.
 */
export class AddEmailLinks1765400000000 implements MigrationInterface {
  name = 'AddEmailLinks1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN email_verified_at timestamptz');
    await q.query(`
      CREATE TABLE email_verifications (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        email text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query('CREATE INDEX email_verifications_user ON email_verifications (user_id, created_at)');
    await q.query(`
      CREATE TABLE password_reset_requests (
        id uuid PRIMARY KEY,
        user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        token_hash text UNIQUE,
        password_hash text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        ip text,
        CHECK ((user_id IS NULL) = (token_hash IS NULL) AND (token_hash IS NULL) = (password_hash IS NULL))
      )`);
    await q.query('CREATE INDEX password_reset_requests_user ON password_reset_requests (user_id, created_at) WHERE user_id IS NOT NULL');
    await q.query('CREATE INDEX password_reset_requests_ip ON password_reset_requests (ip, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE password_reset_requests');
    await q.query('DROP TABLE email_verifications');
    await q.query('ALTER TABLE users DROP COLUMN email_verified_at');
  }
}
