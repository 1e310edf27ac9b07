import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rewards' tables (ADR 0025): the tiers and the follower-count multiplier steps as data (seeded here,
 * changed with an UPDATE), the clippers' standing (points, points tier, user tier), earnings and
 * payouts; and the read models fed by other services' events: people (identity) and submissions
 * (submissions), each row carrying its source's updated_at so an older event never overwrites a newer.
 */
export class CreateRewardsTables1765000000000 implements MigrationInterface {
  name = 'CreateRewardsTables1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tiers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        level integer NOT NULL UNIQUE CHECK (level BETWEEN 1 AND 4),
        name text NOT NULL UNIQUE,
        description text NOT NULL,
        rate_per_post numeric(20, 6) NOT NULL CHECK (rate_per_post >= 0),
        min_total_approved integer NOT NULL CHECK (min_total_approved >= 0),
        window_weeks integer NOT NULL CHECK (window_weeks BETWEEN 1 AND 52),
        min_approved_in_window integer NOT NULL CHECK (min_approved_in_window >= 0),
        min_approval_rate numeric(4, 3) NOT NULL CHECK (min_approval_rate BETWEEN 0 AND 1),
        min_avg_views integer NOT NULL CHECK (min_avg_views >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      INSERT INTO tiers (level, name, description, rate_per_post, min_total_approved, window_weeks, min_approved_in_window, min_approval_rate, min_avg_views) VALUES
        (1, 'Bronze', 'New clippers', 10, 0, 4, 1, 0.5, 100),
        (2, 'Silver', 'Consistent performers', 15, 10, 4, 5, 0.7, 500),
        (3, 'Gold', 'High-quality creators', 25, 25, 4, 10, 0.8, 1500),
        (4, 'Diamond', 'Elite viral content', 40, 50, 4, 20, 0.9, 5000)`);
    await q.query(`
      CREATE TABLE multiplier_steps (
        min_followers integer PRIMARY KEY CHECK (min_followers >= 0),
        multiplier numeric(3, 2) NOT NULL CHECK (multiplier BETWEEN 1 AND 2)
      )`);
    await q.query(
      'INSERT INTO multiplier_steps (min_followers, multiplier) VALUES (0, 1.1), (100, 1.25), (1000, 1.5), (5000, 1.75), (10000, 2.0)',
    );
    await q.query(`
      CREATE TABLE people (
        id uuid PRIMARY KEY,
        role text NOT NULL,
        display_name text,
        twitter_username text,
        wallet_address text,
        streamer_multiplier numeric(3, 2) NOT NULL DEFAULT 1.00,
        follower_count integer NOT NULL DEFAULT 0,
        follower_count_at timestamptz,
        source_updated_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE submissions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        streamer_id uuid,
        name text NOT NULL,
        url text NOT NULL,
        platform text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        rejected_reason text,
        views bigint NOT NULL DEFAULT 0,
        approved_at timestamptz,
        streamer_multiplier numeric(3, 2),
        created_at timestamptz NOT NULL,
        source_updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX submissions_user_idx ON submissions (user_id, created_at DESC, id DESC)');
    await q.query(`
      CREATE TABLE clipper_standings (
        user_id uuid PRIMARY KEY,
        clip_points bigint NOT NULL DEFAULT 0,
        clipper_tier text NOT NULL DEFAULT 'bronze' CHECK (clipper_tier IN ('bronze', 'silver', 'gold')),
        current_tier integer NOT NULL DEFAULT 1 CHECK (current_tier BETWEEN 1 AND 4),
        breakdown jsonb NOT NULL,
        revision integer NOT NULL DEFAULT 0,
        last_clip_points_update timestamptz,
        last_approved_clip_date timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX clipper_standings_points_idx ON clipper_standings (clip_points DESC)');
    await q.query(`
      CREATE TABLE payouts (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        wallet_address text NOT NULL,
        amount numeric(20, 6) NOT NULL CHECK (amount > 0),
        earnings_count integer NOT NULL,
        status text NOT NULL CHECK (status IN ('prepared', 'paid')),
        driver text NOT NULL,
        reference text NOT NULL UNIQUE,
        tx_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        CONSTRAINT payouts_period_key UNIQUE (user_id, period_end),
        CONSTRAINT payouts_paid_check CHECK ((status = 'paid') = (tx_hash IS NOT NULL AND paid_at IS NOT NULL))
      )`);
    await q.query("CREATE INDEX payouts_ledger_idx ON payouts (paid_at DESC, id DESC) WHERE status = 'paid'");
    await q.query(`
      CREATE TABLE earnings (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        submission_id uuid NOT NULL UNIQUE,
        amount numeric(20, 6) NOT NULL CHECK (amount >= 0),
        type text NOT NULL DEFAULT 'post',
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')),
        tier_level integer NOT NULL,
        multiplier numeric(3, 2) NOT NULL,
        payout_id uuid REFERENCES payouts (id),
        period_start timestamptz,
        period_end timestamptz,
        tx_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT earnings_paid_check CHECK ((status = 'paid') = (tx_hash IS NOT NULL))
      )`);
    await q.query('CREATE INDEX earnings_user_idx ON earnings (user_id, created_at DESC, id DESC)');
    await q.query("CREATE INDEX earnings_pending_idx ON earnings (user_id, created_at) WHERE status = 'pending' AND payout_id IS NULL");
    await q.query('CREATE INDEX earnings_payout_idx ON earnings (payout_id) WHERE payout_id IS NOT NULL');
    // The ledger driver's book: what it 'sent', by reference, so a run that died after recording a
    // transfer finds it again exactly as the Solana driver finds a confirmed transaction.
    await q.query(`
      CREATE TABLE ledger_transfers (
        reference text PRIMARY KEY,
        signature text NOT NULL UNIQUE,
        wallet_address text NOT NULL,
        amount_base_units bigint NOT NULL CHECK (amount_base_units > 0),
        memo text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE payout_skips (
        user_id uuid NOT NULL,
        period_end timestamptz NOT NULL,
        reason text NOT NULL,
        amount numeric(20, 6) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, period_end)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'payout_skips',
      'ledger_transfers',
      'earnings',
      'payouts',
      'clipper_standings',
      'submissions',
      'people',
      'multiplier_steps',
      'tiers',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
