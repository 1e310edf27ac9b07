import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ratings of completed hires (ADR 0040): the hash of the token the client rates with (SHA-256, hex; the
 * token itself is only in the request's answer), when it was rated, and the review's limit brought to the
 * rule's 1,000 characters. A rating needs a completed hire and comes with its time, once. Requests stored
 * before this have no token and cannot be rated.
 */
export class AddHireRatings1766900000000 implements MigrationInterface {
  name = 'AddHireRatings1766900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE clipper_hires ADD COLUMN rating_token_hash text CHECK (char_length(rating_token_hash) = 64)');
    await q.query('ALTER TABLE clipper_hires ADD COLUMN rated_at timestamptz');
    await q.query('ALTER TABLE clipper_hires DROP CONSTRAINT clipper_hires_client_review_check');
    await q.query('ALTER TABLE clipper_hires ADD CONSTRAINT clipper_hires_client_review_check CHECK (char_length(client_review) <= 1000)');
    await q.query(`
      ALTER TABLE clipper_hires ADD CONSTRAINT clipper_hires_rating_check CHECK (
        (client_rating IS NULL AND rated_at IS NULL AND client_review IS NULL)
        OR (client_rating IS NOT NULL AND rated_at IS NOT NULL AND status = 'completed'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE clipper_hires DROP CONSTRAINT clipper_hires_rating_check');
    await q.query('ALTER TABLE clipper_hires DROP CONSTRAINT clipper_hires_client_review_check');
    await q.query('ALTER TABLE clipper_hires ADD CONSTRAINT clipper_hires_client_review_check CHECK (char_length(client_review) <= 2000)');
    await q.query('ALTER TABLE clipper_hires DROP COLUMN rated_at');
    await q.query('ALTER TABLE clipper_hires DROP COLUMN rating_token_hash');
  }
}
