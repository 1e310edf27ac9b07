import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The moderation queue's orders (issue 36): every status with the pending ones first, and one status at a
 * time, each newest first, so a page is read in index order at any depth instead of sorting the table.
 * The rank expression is the one SubmissionRepository.listQueue orders by.
 */
export class ModerationQueue1764700000000 implements MigrationInterface {
  name = 'ModerationQueue1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX submissions_queue_idx ON submissions ((CASE WHEN status = 'pending' THEN 0 ELSE 1 END), created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX submissions_status_created_idx ON submissions (status, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX submissions_status_created_idx`);
    await q.query(`DROP INDEX submissions_queue_idx`);
  }
}
