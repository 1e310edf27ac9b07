import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys of the versioned read API (ADR 0053). The key itself is never stored: only its SHA-256 (what
 * AuthenticateKey looks up, unique) and its first 12 characters for the owner's list. A revoked key keeps
 * its row (revoked_at) so its id names nothing again; its owner's list leaves it out.
 */
export class CreateApiKeys1767000000000 implements MigrationInterface {
  name = 'CreateApiKeys1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash text NOT NULL,
        scopes text[] NOT NULL,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash),
        CONSTRAINT api_keys_scopes_check CHECK (
          cardinality(scopes) > 0 AND scopes <@ ARRAY['campaigns:read', 'submissions:read', 'leaderboards:read']::text[]
        )
      )`);
    // A user's keys not revoked, newest first: the list, and the count of live keys under the per-user lock.
    await q.query('CREATE INDEX api_keys_user_live_idx ON api_keys (user_id, created_at DESC, id DESC) WHERE revoked_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_keys');
  }
}
