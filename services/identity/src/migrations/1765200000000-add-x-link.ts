import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign in with X (ADR 0028): the X account a user signs in with, by X's stable user id (digits, kept as
 * text: it can pass 2^53), at most one per user and one user per X account; when it was linked.
 */
export class AddXLink1765200000000 implements MigrationInterface {
  name = 'AddXLink1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN x_user_id text, ADD COLUMN x_linked_at timestamptz');
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_x_user_id_format CHECK (x_user_id ~ '^[0-9]{1,19}$')`);
    await q.query('ALTER TABLE users ADD CONSTRAINT users_x_user_id_key UNIQUE (x_user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP CONSTRAINT users_x_user_id_key, DROP CONSTRAINT users_x_user_id_format');
    await q.query('ALTER TABLE users DROP COLUMN x_linked_at, DROP COLUMN x_user_id');
  }
}
