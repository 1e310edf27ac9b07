import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The media reconciler looks for uploads processing since too long: a small partial index keeps that cheap. */
export class IndexProcessingUploads1764100000000 implements MigrationInterface {
  name = 'IndexProcessingUploads1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX video_uploads_processing_idx ON video_uploads (finalized_at) WHERE status = 'processing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX video_uploads_processing_idx');
  }
}
