import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * is_live and next_stream_time are the social service's now (ADR 0021); identity mirrors them from
 * social's events. Each mirrored field keeps the revision of the last event applied, so an event that
 * arrives late (after a redelivery) never puts back an older state.
 */
export class AddSocialRevisions1764500000000 implements MigrationInterface {
  name = 'AddSocialRevisions1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE users ADD COLUMN live_revision integer NOT NULL DEFAULT 0, ADD COLUMN stream_time_revision integer NOT NULL DEFAULT 0',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN live_revision, DROP COLUMN stream_time_revision');
  }
}
