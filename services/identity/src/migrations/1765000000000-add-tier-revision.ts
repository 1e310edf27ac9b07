import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * users.current_tier is the rewards service's (ADR 0025); identity mirrors it from
 * rewards.standing-changed, keeping the revision of the last event applied so a late one never puts
 * back an older tier.
 */
export class AddTierRevision1765000000000 implements MigrationInterface {
  name = 'AddTierRevision1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN tier_revision integer NOT NULL DEFAULT 0');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN tier_revision');
  }
}
