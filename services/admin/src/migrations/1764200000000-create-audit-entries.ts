import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit log: appended to, read newest first by keyset (created_at, id). */
export class CreateAuditEntries1764200000000 implements MigrationInterface {
  name = 'CreateAuditEntries1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_entries (
        id uuid PRIMARY KEY,
        action text NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
        target text,
        result text NOT NULL CHECK (result IN ('ok', 'refused', 'failed')),
        detail text,
        actor text,
        client_ip text,
        correlation_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_entries_created_idx ON audit_entries (created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE audit_entries');
  }
}
