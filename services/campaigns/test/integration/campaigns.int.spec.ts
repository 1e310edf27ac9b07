import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import type { QueryRunner } from 'typeorm';
import { bootstrapCampaigns } from '../../src/app.js';
import { AddCampaignAnnouncedProgressStep1767400000000 } from '../../src/migrations/1767400000000-add-campaign-announced-progress-step.js';
import { AddClipReviewAndPostUrl1767500000000 } from '../../src/migrations/1767500000000-add-clip-review-and-post-url.js';
import { startCampaigns, type CampaignsHarness } from '../support/campaigns-harness.js';

// campaigns started by the kit against the real Postgres and NATS: migrated, ready, answering gRPC.

describe('campaigns', () => {
  let h: CampaignsHarness;
  beforeAll(async () => {
    h = await startCampaigns();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is ready once its database and NATS answer', async () => {
    const res = await fetch(`${h.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', nats: 'ok' } });
  });

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'campaigns',
      version: '0.1.0',
      migrations: [
        'CreateEventBusTables1763700000000',
        'CreateClipperApplications1764300000000',
        'CreateCampaignsAndHiring1766100000000',
        'AddHireRatings1766900000000',
        'IndexClipsByClipper1766900000001',
        'AddClipperProfileRevision1767300000000',
        'AddCampaignAnnouncedProgressStep1767400000000',
        'AddClipReviewAndPostUrl1767500000000',
      ],
    });
  });

  it('starts campaigns already running or completed at the 10 % step they stand at, so deploying tells no past step', async () => {
    // Replayed in a transaction rolled back after: the column dropped, rows as they stood, the migration again.
    const migration = new AddCampaignAnnouncedProgressStep1767400000000();
    const runner = { query: (sql: string) => h.db.query(sql) } as unknown as QueryRunner;
    await h.db.query('BEGIN');
    try {
      await migration.down(runner);
      const { rows } = await h.db.query<{ id: string }>(
        `INSERT INTO cpm_campaigns (id, streamer_id, title, description, target_views, budget_amount, status, delivered_views, approved_at, completed_at)
         VALUES (gen_random_uuid(), gen_random_uuid(), 'Running push', $1, 100000, 500, 'approved', 47999, now(), NULL),
                (gen_random_uuid(), gen_random_uuid(), 'Completed push', $1, 100000, 500, 'completed', 100000, now(), now()),
                (gen_random_uuid(), gen_random_uuid(), 'Pending push', $1, 100000, 500, 'pending', 0, NULL, NULL)
         RETURNING id`,
        ['x'.repeat(20)],
      );
      await migration.up(runner);
      const steps = await h.db.query<{ step: number }>(
        'SELECT announced_progress_step AS step FROM cpm_campaigns WHERE id = ANY($1) ORDER BY title DESC',
        [rows.map((r) => r.id)],
      );
      expect(steps.rows.map((r) => r.step)).toEqual([4, 0, 10]);
    } finally {
      await h.db.query('ROLLBACK');
    }
  });

  it('keeps the clips it knew not under review and without a post until their next event, paged by its new index', async () => {
    // Replayed in a transaction rolled back after, as above.
    const migration = new AddClipReviewAndPostUrl1767500000000();
    const runner = { query: (sql: string) => h.db.query(sql) } as unknown as QueryRunner;
    await h.db.query('BEGIN');
    try {
      await migration.down(runner);
      const { rows } = await h.db.query<{ submission_id: string }>(
        `INSERT INTO campaign_clips (submission_id, user_id, streamer_id, status, views, approved_at, source_updated_at)
         VALUES (gen_random_uuid(), gen_random_uuid(), gen_random_uuid()::text, 'approved', 10, now(), now()) RETURNING submission_id`,
      );
      await migration.up(runner);
      const clip = await h.db.query('SELECT under_review, post_url FROM campaign_clips WHERE submission_id = $1', [rows[0]!.submission_id]);
      expect(clip.rows).toEqual([{ under_review: false, post_url: null }]);
      const indexes = await h.db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'campaign_clips' ORDER BY 1`,
      );
      expect(indexes.rows.map((r) => r.indexname)).toEqual([
        'campaign_clips_pkey',
        'campaign_clips_streamer_page_idx',
        'campaign_clips_user_idx',
      ]);
    } finally {
      await h.db.query('ROLLBACK');
    }
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapCampaigns({ CAMPAIGNS_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });
});
