import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * clipper-profile.changed carries a revision that grows with each change of the profile, so read models
 * (feed's clip cards) apply only the latest: `revision` here is the last one published (0: never).
 */
export class AddClipperProfileRevision1767300000000 implements MigrationInterface {
  name = 'AddClipperProfileRevision1767300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE clipper_profiles ADD COLUMN revision integer NOT NULL DEFAULT 0');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE clipper_profiles DROP COLUMN IF EXISTS revision');
  }
}
