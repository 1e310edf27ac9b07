import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CPM campaigns, clipper profiles and their services, hire requests (spec 02 §3, ADR 0027), and the two
 * read models fed by other services' events: people (identity's users, rewards' standing) and the clips
 * that deliver a streamer's campaign views (submissions). Each table repeats its rules' limits as CHECKs
 * so no path stores what the rules refuse. The read models keep the version of what they last applied
 * (identity's updated_at, rewards' revision, submissions' updated_at) so a late event never regresses them.
 */
export class CreateCampaignsAndHiring1766100000000 implements MigrationInterface {
  name = 'CreateCampaignsAndHiring1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cpm_campaigns (
        id uuid PRIMARY KEY,
        streamer_id uuid NOT NULL,
        title text NOT NULL CHECK (char_length(title) BETWEEN 5 AND 100),
        description text NOT NULL CHECK (char_length(description) BETWEEN 20 AND 2000),
        target_views bigint NOT NULL CHECK (target_views BETWEEN 100000 AND 100000000),
        budget_amount numeric(12,2) NOT NULL CHECK (budget_amount >= 500 AND budget_amount = round(target_views::numeric * 5 / 1000, 2)),
        content_link text CHECK (char_length(content_link) BETWEEN 1 AND 2048),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'completed')),
        delivered_views bigint NOT NULL DEFAULT 0 CHECK (delivered_views BETWEEN 0 AND target_views),
        rejected_reason text CHECK (char_length(rejected_reason) <= 500),
        reviewed_by text,
        reviewed_at timestamptz,
        approved_at timestamptz CHECK (status NOT IN ('approved', 'completed') OR approved_at IS NOT NULL),
        completed_at timestamptz CHECK (status <> 'completed' OR completed_at IS NOT NULL),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX cpm_campaigns_created_idx ON cpm_campaigns (created_at DESC, id DESC)');
    await q.query('CREATE INDEX cpm_campaigns_streamer_idx ON cpm_campaigns (streamer_id, created_at DESC)');
    await q.query('CREATE INDEX cpm_campaigns_status_idx ON cpm_campaigns (status, created_at DESC, id DESC)');
    // ADR 0027: at most one running (approved) campaign per streamer, however many approvals arrive at once.
    await q.query(`CREATE UNIQUE INDEX cpm_campaigns_one_running_idx ON cpm_campaigns (streamer_id) WHERE status = 'approved'`);

    await q.query(`
      CREATE TABLE clipper_profiles (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL UNIQUE,
        display_name text NOT NULL,
        twitter_username text,
        bio text CHECK (char_length(bio) <= 1000),
        profile_image_url text,
        portfolio_urls text[] NOT NULL DEFAULT '{}' CHECK (cardinality(portfolio_urls) <= 10),
        specialties text[] NOT NULL DEFAULT '{}' CHECK (cardinality(specialties) <= 10),
        years_experience integer CHECK (years_experience BETWEEN 0 AND 60),
        hourly_rate numeric(10,2) CHECK (hourly_rate >= 0),
        is_available text NOT NULL DEFAULT 'true' CHECK (is_available IN ('true', 'false')),
        total_hires integer NOT NULL DEFAULT 0 CHECK (total_hires >= 0),
        average_rating numeric(3,2) NOT NULL DEFAULT 0 CHECK (average_rating BETWEEN 0 AND 5),
        total_reviews integer NOT NULL DEFAULT 0 CHECK (total_reviews >= 0),
        social_links text[] NOT NULL DEFAULT '{}' CHECK (cardinality(social_links) <= 10),
        clip_points bigint NOT NULL DEFAULT 0 CHECK (clip_points >= 0),
        clipper_tier text NOT NULL DEFAULT 'bronze' CHECK (clipper_tier IN ('bronze', 'silver', 'gold')),
        last_clip_points_update timestamptz,
        last_approved_clip_date timestamptz,
        standing_revision integer NOT NULL DEFAULT 0,
        identity_updated_at timestamptz,
        packages_offered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE clipper_services (
        id uuid PRIMARY KEY,
        clipper_id uuid NOT NULL REFERENCES clipper_profiles (user_id) ON DELETE CASCADE,
        position integer NOT NULL,
        service_name text NOT NULL CHECK (char_length(service_name) BETWEEN 1 AND 100),
        description text CHECK (char_length(description) <= 500),
        base_price numeric(12,2) CHECK (base_price BETWEEN 0 AND 1000000),
        delivery_time_hours integer CHECK (delivery_time_hours BETWEEN 1 AND 720),
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (clipper_id, position)
      )`);

    await q.query(`
      CREATE TABLE clipper_hires (
        id uuid PRIMARY KEY,
        client_user_id uuid,
        clipper_id uuid NOT NULL REFERENCES clipper_profiles (user_id),
        service_id uuid REFERENCES clipper_services (id) ON DELETE SET NULL,
        client_name text NOT NULL CHECK (char_length(client_name) BETWEEN 2 AND 100),
        client_email text NOT NULL CHECK (char_length(client_email) BETWEEN 3 AND 254 AND client_email = lower(client_email)),
        project_description text NOT NULL CHECK (char_length(project_description) BETWEEN 20 AND 2000),
        budget numeric(12,2) CHECK (budget > 0 AND budget <= 1000000),
        urgency text NOT NULL DEFAULT 'medium' CHECK (urgency IN ('low', 'medium', 'high', 'urgent')),
        preferred_contact text NOT NULL DEFAULT 'email' CHECK (preferred_contact IN ('email', 'telegram', 'twitter')),
        contact_info text NOT NULL CHECK (char_length(contact_info) BETWEEN 1 AND 200),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined', 'completed')),
        client_rating integer CHECK (client_rating BETWEEN 1 AND 5),
        client_review text CHECK (char_length(client_review) <= 2000),
        clipper_notes text CHECK (char_length(clipper_notes) <= 1000),
        responded_at timestamptz,
        completed_at timestamptz CHECK (status <> 'completed' OR completed_at IS NOT NULL),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (client_user_id IS NULL OR client_user_id <> clipper_id)
      )`);
    await q.query('CREATE INDEX clipper_hires_clipper_idx ON clipper_hires (clipper_id, created_at DESC, id DESC)');
    await q.query('CREATE INDEX clipper_hires_clipper_status_idx ON clipper_hires (clipper_id, status, created_at DESC, id DESC)');

    await q.query(`
      CREATE TABLE campaign_people (
        user_id uuid PRIMARY KEY,
        role text,
        display_name text,
        twitter_username text,
        profile_image_url text,
        source_updated_at timestamptz,
        clip_points bigint NOT NULL DEFAULT 0,
        clipper_tier text NOT NULL DEFAULT 'bronze' CHECK (clipper_tier IN ('bronze', 'silver', 'gold')),
        standing_revision integer NOT NULL DEFAULT 0,
        standing_at timestamptz
      )`);

    await q.query(`
      CREATE TABLE campaign_clips (
        submission_id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        streamer_id text,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        views bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
        approved_at timestamptz,
        source_updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX campaign_clips_streamer_idx ON campaign_clips (streamer_id, approved_at) WHERE status = 'approved'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE campaign_clips');
    await q.query('DROP TABLE campaign_people');
    await q.query('DROP TABLE clipper_hires');
    await q.query('DROP TABLE clipper_services');
    await q.query('DROP TABLE clipper_profiles');
    await q.query('DROP TABLE cpm_campaigns');
  }
}
