import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Profile image uploads (spec 02 §2.6): one row per upload URL handed out, from the URL to its use as
 * a picture or banner. Only a hash of the gateway upload URL's token is kept. Rows that expire unused
 * are swept with their objects; used ones stay as the record of where an image came from.
 */
export class CreateImageUploads1765100000000 implements MigrationInterface {
  name = 'CreateImageUploads1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE image_uploads (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('profile', 'banner')),
        upload_key text NOT NULL UNIQUE,
        image_key text NOT NULL UNIQUE,
        token_hash text NOT NULL,
        content_type text NOT NULL,
        declared_size bigint NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'used', 'refused')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query('CREATE INDEX image_uploads_user_id ON image_uploads (user_id)');
    // The sweeper's query: uploads that never became an image, oldest expiry first.
    await q.query(`CREATE INDEX image_uploads_unused_expiry ON image_uploads (expires_at) WHERE status <> 'used'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE image_uploads');
  }
}
