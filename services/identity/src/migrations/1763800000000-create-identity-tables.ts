import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users (accounts and placeholder streamer profiles), server-side sessions, streamer tokens and the
 * password-reset audit trail. Handles are unique among real accounts and among unclaimed
 * placeholders separately: a streamer who claims the placeholder made for their own handle signs
 * up with that same handle.
 */
export class CreateIdentityTables1763800000000 implements MigrationInterface {
  name = 'CreateIdentityTables1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text,
        password_hash text,
        display_name text,
        first_name text,
        last_name text,
        profile_image_url text,
        banner_image_url text,
        wallet_address text,
        twitter_username text,
        role text NOT NULL DEFAULT 'user',
        current_tier integer NOT NULL DEFAULT 1,
        next_stream_time timestamptz,
        is_live text NOT NULL DEFAULT 'false',
        streamer_multiplier numeric(3,2) NOT NULL DEFAULT 1.00,
        is_placeholder text NOT NULL DEFAULT 'false',
        claim_code text,
        claimed_by uuid REFERENCES users (id) ON DELETE SET NULL,
        claimed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_role_check CHECK (role IN ('user', 'clipper', 'streamer', 'admin')),
        CONSTRAINT users_current_tier_check CHECK (current_tier BETWEEN 1 AND 4),
        CONSTRAINT users_is_live_check CHECK (is_live IN ('true', 'false')),
        CONSTRAINT users_is_placeholder_check CHECK (is_placeholder IN ('true', 'false')),
        CONSTRAINT users_streamer_multiplier_check CHECK (streamer_multiplier BETWEEN 1.00 AND 2.00),
        CONSTRAINT users_email_lowercase_check CHECK (email = lower(email)),
        CONSTRAINT users_twitter_username_check CHECK (twitter_username ~ '^[A-Za-z0-9_]{1,15}$'),
        CONSTRAINT users_placeholder_check CHECK (
          is_placeholder = 'false' OR (password_hash IS NULL AND email IS NULL AND claim_code IS NOT NULL)
        )
      )`);
    await q.query('CREATE UNIQUE INDEX users_email_key ON users (email)');
    await q.query(
      `CREATE UNIQUE INDEX users_twitter_username_account_key ON users (lower(twitter_username)) WHERE is_placeholder = 'false'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX users_twitter_username_placeholder_key ON users (lower(twitter_username)) WHERE is_placeholder = 'true' AND claimed_by IS NULL`,
    );
    await q.query('CREATE UNIQUE INDEX users_claim_code_key ON users (claim_code)');
    await q.query('CREATE INDEX users_role_idx ON users (role)');
    await q.query('CREATE INDEX users_claimed_by_idx ON users (claimed_by)');

    await q.query(`
      CREATE TABLE sessions (
        sid text PRIMARY KEY,
        sess jsonb NOT NULL,
        expire timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX sessions_expire_idx ON sessions (expire)');
    await q.query(`CREATE INDEX sessions_user_id_idx ON sessions ((sess ->> 'userId'))`);

    await q.query(`
      CREATE TABLE tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        streamer_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        pump_fun_link text,
        description text,
        is_active text NOT NULL DEFAULT 'true',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tokens_name_check CHECK (char_length(name) BETWEEN 1 AND 50),
        CONSTRAINT tokens_description_check CHECK (description IS NULL OR char_length(description) <= 500),
        CONSTRAINT tokens_is_active_check CHECK (is_active IN ('true', 'false'))
      )`);
    await q.query(`CREATE INDEX tokens_active_created_idx ON tokens (created_at DESC) WHERE is_active = 'true'`);
    await q.query('CREATE INDEX tokens_streamer_id_idx ON tokens (streamer_id)');

    await q.query(`
      CREATE TABLE password_resets (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        ip text
      )`);
    await q.query('CREATE INDEX password_resets_user_id_idx ON password_resets (user_id, at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE password_resets');
    await q.query('DROP TABLE tokens');
    await q.query('DROP TABLE sessions');
    await q.query('DROP TABLE users');
  }
}
