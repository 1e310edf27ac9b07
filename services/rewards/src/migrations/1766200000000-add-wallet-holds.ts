import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payouts to a replaced wallet wait 72 hours (ADR 0032): `people.wallet_changed_at` mirrors identity's
 * stamp of the last replacement; a payout run that holds a clipper's earnings records it as a skip with
 * `held_until` (null for every other reason), and `released_at` once the hold was released (paid, or
 * nothing left to pay).
 */
export class AddWalletHolds1766200000000 implements MigrationInterface {
  name = 'AddWalletHolds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE people ADD COLUMN wallet_changed_at timestamptz');
    await q.query('ALTER TABLE payout_skips ADD COLUMN held_until timestamptz, ADD COLUMN released_at timestamptz');
    // The release job's question: which holds are over and not released yet.
    await q.query('CREATE INDEX payout_skips_held_idx ON payout_skips (held_until) WHERE held_until IS NOT NULL AND released_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS payout_skips_held_idx');
    await q.query('ALTER TABLE payout_skips DROP COLUMN IF EXISTS released_at, DROP COLUMN IF EXISTS held_until');
    await q.query('ALTER TABLE people DROP COLUMN IF EXISTS wallet_changed_at');
  }
}
