import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Earnings of flagged clips (ADR 0050): `held` (a payout never takes it) until an admin releases it (back
 * to `pending`) or voids it (`voided`, never paid). The hold's causes and reasons as the owner of
 * submissions gave them and when it was held; the admin's decision (`released` or `voided`), by whom,
 * their reason, when, and the causes it decided (the same causes never hold it again).
 */
export class AddEarningHolds1767400000000 implements MigrationInterface {
  name = 'AddEarningHolds1767400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE earnings DROP CONSTRAINT IF EXISTS earnings_status_check');
    await q.query(`
      ALTER TABLE earnings
        ADD CONSTRAINT earnings_status_check CHECK (status IN ('pending', 'held', 'voided', 'paid')),
        ADD COLUMN hold_causes jsonb,
        ADD COLUMN hold_reasons jsonb,
        ADD COLUMN held_at timestamptz,
        ADD COLUMN decision text CHECK (decision IN ('released', 'voided')),
        ADD COLUMN decided_by text,
        ADD COLUMN decision_reason text,
        ADD COLUMN decided_at timestamptz,
        ADD COLUMN decided_causes jsonb,
        ADD CONSTRAINT earnings_held_check CHECK ((status = 'held') <= (hold_reasons IS NOT NULL AND held_at IS NOT NULL AND payout_id IS NULL)),
        ADD CONSTRAINT earnings_decided_check CHECK ((decision IS NULL) = (decided_at IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("UPDATE earnings SET status = 'pending' WHERE status = 'held'");
    await q.query("DELETE FROM earnings WHERE status = 'voided'");
    await q.query(`
      ALTER TABLE earnings
        DROP CONSTRAINT IF EXISTS earnings_decided_check,
        DROP CONSTRAINT IF EXISTS earnings_held_check,
        DROP COLUMN IF EXISTS decided_causes, DROP COLUMN IF EXISTS decided_at, DROP COLUMN IF EXISTS decision_reason,
        DROP COLUMN IF EXISTS decided_by, DROP COLUMN IF EXISTS decision, DROP COLUMN IF EXISTS held_at,
        DROP COLUMN IF EXISTS hold_reasons, DROP COLUMN IF EXISTS hold_causes,
        DROP CONSTRAINT IF EXISTS earnings_status_check`);
    await q.query("ALTER TABLE earnings ADD CONSTRAINT earnings_status_check CHECK (status IN ('pending', 'paid'))");
  }
}
