import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The multiplier rewards applies to each streamer, as last published (rewards.streamer-multiplier-changed,
 * ADR 0042): `applied_multiplier` null until first told, `multiplier_revision` growing with each change.
 * Streamers known before this migration are told at their next user, follow or daily recompute.
 */
export class AddAppliedMultipliers1767300000000 implements MigrationInterface {
  name = 'AddAppliedMultipliers1767300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE people ADD COLUMN applied_multiplier numeric(3, 2), ADD COLUMN multiplier_revision integer NOT NULL DEFAULT 0',
    );
    // The daily recompute's question: every streamer, in id order.
    await q.query("CREATE INDEX people_streamers_idx ON people (id) WHERE role = 'streamer'");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS people_streamers_idx');
    await q.query('ALTER TABLE people DROP COLUMN IF EXISTS multiplier_revision, DROP COLUMN IF EXISTS applied_multiplier');
  }
}
