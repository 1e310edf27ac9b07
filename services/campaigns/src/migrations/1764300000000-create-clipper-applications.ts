import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clipper job applications. The table repeats the spec 02 §5 limits as CHECKs so no path can store what
 * the rules refuse, and one partial unique index keeps a single pending application per email.
 */
export class CreateClipperApplications1764300000000 implements MigrationInterface {
  name = 'CreateClipperApplications1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clipper_applications (
        id uuid PRIMARY KEY,
        full_name text NOT NULL CHECK (char_length(full_name) BETWEEN 2 AND 100),
        email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254 AND email = lower(email)),
        social_media_handles text CHECK (char_length(social_media_handles) <= 500),
        availability_hours integer CHECK (availability_hours BETWEEN 1 AND 168),
        experience text NOT NULL CHECK (char_length(experience) BETWEEN 20 AND 2000),
        why_join text NOT NULL CHECK (char_length(why_join) BETWEEN 20 AND 2000),
        portfolio_links text CHECK (char_length(portfolio_links) <= 1000),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        notes text,
        reviewed_by text,
        reviewed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX clipper_applications_pending_email_idx ON clipper_applications (email) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX clipper_applications_created_idx ON clipper_applications (created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE clipper_applications');
  }
}
