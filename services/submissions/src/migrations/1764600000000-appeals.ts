import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Appeals (ADR 0051): one per clip and kind (a rejection, a held earning), with what was appealed and the
 * admin's decision; and on the submission the hold of its earning as rewards' events last told it
 * (held, released, voided), the earning's id and reasons, and the time of that event (events applied in
 * order: an older one changes nothing).
 */
export class Appeals1764600000000 implements MigrationInterface {
  name = 'Appeals1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE submissions
        ADD COLUMN earning_hold text CHECK (earning_hold IN ('held', 'released', 'voided')),
        ADD COLUMN earning_id uuid,
        ADD COLUMN earning_hold_reasons jsonb,
        ADD COLUMN earning_hold_at timestamptz
    `);
    await q.query(`
      CREATE TABLE appeals (
        id uuid PRIMARY KEY,
        submission_id uuid NOT NULL REFERENCES submissions (id),
        user_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('rejection', 'hold')),
        text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 1000),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'upheld', 'overturned')),
        earning_id uuid,
        rejected_reason text,
        hold_reasons jsonb,
        decision_reason text,
        decided_by text,
        decided_at timestamptz,
        created_at timestamptz NOT NULL,
        UNIQUE (submission_id, kind)
      )
    `);
    await q.query(`CREATE INDEX appeals_user_newest ON appeals (user_id, created_at DESC, id DESC)`);
    // The admin list: pending first (0), then oldest first.
    await q.query(`CREATE INDEX appeals_admin_order ON appeals ((CASE WHEN status = 'pending' THEN 0 ELSE 1 END), created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE appeals`);
    await q.query(
      `ALTER TABLE submissions DROP COLUMN earning_hold, DROP COLUMN earning_id, DROP COLUMN earning_hold_reasons, DROP COLUMN earning_hold_at`,
    );
  }
}
