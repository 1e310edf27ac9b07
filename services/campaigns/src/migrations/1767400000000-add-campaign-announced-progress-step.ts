import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * campaign.progress tells each 10 % step of a campaign's target once (issue 37): `announced_progress_step`
 * is the highest step already told (0 to 10; 10: completed), so views that fall back and rise again tell
 * nothing twice. Campaigns already running or completed start at the step they stand at, so deploying
 * does not tell their past steps all at once.
 */
export class AddCampaignAnnouncedProgressStep1767400000000 implements MigrationInterface {
  name = 'AddCampaignAnnouncedProgressStep1767400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE cpm_campaigns ADD COLUMN announced_progress_step smallint NOT NULL DEFAULT 0 CHECK (announced_progress_step BETWEEN 0 AND 10)',
    );
    // bigint division truncates: the whole steps reached (delivered_views never exceeds the target).
    await q.query(
      `UPDATE cpm_campaigns SET announced_progress_step = LEAST(10, delivered_views * 10 / target_views) WHERE status IN ('approved', 'completed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE cpm_campaigns DROP COLUMN IF EXISTS announced_progress_step');
  }
}
