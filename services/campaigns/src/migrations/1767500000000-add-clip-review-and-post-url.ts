import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The versioned read API (issue 37) answers a streamer each counted clip and the campaign's verified views:
 * `under_review` (the clip's views are under review or it is flagged, as submissions' events tell it) and
 * `post_url` (the post on X). Rows from before learn both from the clip's next event; until then a clip counts
 * as not under review and its post is not known. The page index serves the counted clips' keyset, newest
 * approval first, and the delivered views' sums that the narrower index served before.
 */
export class AddClipReviewAndPostUrl1767500000000 implements MigrationInterface {
  name = 'AddClipReviewAndPostUrl1767500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE campaign_clips ADD COLUMN under_review boolean NOT NULL DEFAULT false, ADD COLUMN post_url text');
    await q.query(
      `CREATE INDEX campaign_clips_streamer_page_idx ON campaign_clips (streamer_id, approved_at DESC, submission_id DESC) WHERE status = 'approved'`,
    );
    await q.query('DROP INDEX campaign_clips_streamer_idx');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX campaign_clips_streamer_idx ON campaign_clips (streamer_id, approved_at) WHERE status = 'approved'`);
    await q.query('DROP INDEX campaign_clips_streamer_page_idx');
    await q.query('ALTER TABLE campaign_clips DROP COLUMN post_url, DROP COLUMN under_review');
  }
}
