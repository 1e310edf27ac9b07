import { randomUUID } from 'node:crypto';
import type { FetchedPost, PostMetrics } from '@clipit/contracts';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// The view-risk score (ADR 0049) against the real Postgres and NATS: the metrics worker's reads applied
// through the inbox, the score and its reasons stored with the history they were computed from, the
// snapshot of metrics.updated and the gRPC answer carrying them, the platform's norms measured in SQL.

let h: SubmissionsHarness;

beforeAll(async () => {
  // Norms measured again after a second, so the test of measured norms need not wait five minutes.
  h = await startSubmissions({ METRICS_SCHEDULER_INTERVAL_SECONDS: 3600, RISK_HOLD_THRESHOLD: 60, RISK_NORMS_CACHE_SECONDS: 1 });
});

afterAll(async () => {
  await h?.stop();
});

const MIN = 60_000;
const HOUR = 60 * MIN;

async function approvedSubmission() {
  const created = await h.newSubmission();
  await h.client.approve({ submissionId: created.id });
  return created;
}

type Verifiable = { id: string; externalId: string; verificationCode: string };

function found(s: Verifiable, metrics: PostMetrics, publishedAt: Date): FetchedPost {
  return {
    submissionId: s.id,
    externalId: s.externalId,
    outcome: 'found',
    metrics,
    publishedAt: publishedAt.toISOString(),
    authorId: '4242',
    // Verified by its code: its counts count, so the norms measure it.
    text: `clip ${s.verificationCode}`,
    raw: { id: s.externalId },
  };
}

async function fetched(posts: FetchedPost[], fetchedAt: Date): Promise<void> {
  const { seq } = await h.mediaWorker.publish('metrics.fetched', {
    batchId: `risk-test-${randomUUID()}`,
    fetchedAt: fetchedAt.toISOString(),
    posts,
  });
  await h.consumerPast(seq);
}

const stored = async (id: string) =>
  (
    await h.rows<{ risk_score: number | null; risk_reasons: string[] | null }>(
      'SELECT risk_score, risk_reasons FROM submissions WHERE id = $1',
      [id],
    )
  )[0]!;

const published = (id: string) =>
  h.rows<{ views: number; risk: { score: number; reasons: string[]; underReview: boolean } | null }>(
    `SELECT (envelope->'data'->'submission'->>'views')::int AS views, envelope->'data'->'submission'->'risk' AS risk
       FROM outbox WHERE type = 'metrics.updated' AND envelope->'data'->'submission'->>'id' = $1 ORDER BY seq`,
    [id],
  );

const metrics = (views: number, likes: number, retweets: number, videoViews: number | null = null): PostMetrics => ({
  views,
  likes,
  retweets,
  replies: 0,
  quotes: 0,
  bookmarks: 0,
  videoViews,
});

describe('the view-risk score of an applied read', () => {
  it('scores an inflated clip from its stored history, with the reasons, in the snapshot and the gRPC answer', async () => {
    const s = await approvedSubmission();
    const t0 = new Date(Date.now() - 2 * HOUR);
    const posted = new Date(t0.getTime() - 30 * MIN);

    await fetched([found(s, metrics(1_200, 30, 4, 500), posted)], t0);
    // One read: not judged yet.
    expect(await stored(s.id)).toEqual({ risk_score: null, risk_reasons: null });
    expect((await h.client.getSubmission({ id: s.id })).risk).toBeUndefined();
    expect((await published(s.id)).map((u) => u.risk)).toEqual([null]);

    // An hour later 48,000 views, 2 more likes and retweets, and the video barely played.
    const t1 = new Date(t0.getTime() + HOUR);
    await fetched([found(s, metrics(48_000, 31, 5, 520), posted)], t1);

    const jump = 'Views jumped from 1,200 to 48,000 between two reads an hour apart while likes and retweets rose by 2.';
    const row = await stored(s.id);
    expect(row.risk_score).toBe(100);
    expect(row.risk_reasons).toHaveLength(3);
    expect(row.risk_reasons![0]).toBe(jump);
    expect(row.risk_reasons!.join(' ')).toMatch(/Likes, retweets, replies and quotes are 0\.075% of views \(36 on 48,000\)/);
    expect(row.risk_reasons!.join(' ')).toMatch(/Only 520 of the post's 48,000 views played the video/);
    // The score is of the history as stored, video views included.
    expect(
      await h.rows('SELECT views::int, video_views::int FROM submission_metrics_history WHERE submission_id = $1 ORDER BY fetched_at', [
        s.id,
      ]),
    ).toEqual([
      { views: 1_200, video_views: 500 },
      { views: 48_000, video_views: 520 },
    ]);

    const updates = await published(s.id);
    expect(updates.at(-1)).toEqual({ views: 48_000, risk: { score: 100, reasons: row.risk_reasons, underReview: true } });
    expect((await h.client.getSubmission({ id: s.id })).risk).toEqual({ score: 100, reasons: row.risk_reasons, underReview: true });
    expect((await h.client.listSubmissions({ limit: 200, flags: [] })).submissions.find((x) => x.id === s.id)?.risk?.underReview).toBe(
      true,
    );
    expect(await h.deadLetters()).toBe(0);
  });

  it('gives an ordinary clip 0 without reasons, and publishes nothing for that alone', async () => {
    const s = await approvedSubmission();
    const t0 = new Date(Date.now() - 2 * HOUR);
    const posted = new Date(t0.getTime() - HOUR);
    await fetched([found(s, metrics(10_000, 300, 40, 4_000), posted)], t0);
    await fetched([found(s, metrics(10_000, 300, 40, 4_000), posted)], new Date(t0.getTime() + 30 * MIN));
    expect(await stored(s.id)).toEqual({ risk_score: 0, risk_reasons: [] });
    expect((await h.client.getSubmission({ id: s.id })).risk).toEqual({ score: 0, reasons: [], underReview: false });
    // Only the first read (verifying it) was published: the second changed no count, and a first 0 moves no score.
    expect((await published(s.id)).map((u) => u.risk)).toEqual([null]);
  });

  it("compares engagement with the platform's own median for clips of the same size once 30 of them measure it", async () => {
    const t0 = new Date(Date.now() - 3 * HOUR);
    const posted = new Date(t0.getTime() - HOUR);
    // 30 approved, verified clips of 20,000 views with 10 % engagement.
    const clips = await Promise.all(Array.from({ length: 30 }, () => approvedSubmission()));
    await fetched(
      clips.map((c) => found(c, metrics(20_000, 1_800, 200), posted)),
      t0,
    );
    // The norms cached by earlier reads are a second old at most: measured again now.
    await new Promise((r) => setTimeout(r, 1100));

    // 1 % engagement: ordinary against the built-in 1 %, a tenth of this platform's 10 %.
    const s = await approvedSubmission();
    await fetched([found(s, metrics(45_000, 400, 50), posted)], t0);
    await fetched([found(s, metrics(50_000, 450, 50), posted)], new Date(t0.getTime() + 30 * MIN));
    const row = await stored(s.id);
    expect(row.risk_reasons).toEqual([
      "Likes, retweets, replies and quotes are 1.0% of views (500 on 50,000), 10 times below the platform's median of 10.0% for clips of 10,000 to 99,999 views.",
    ]);
    expect(row.risk_score).toBe(38);
    // Under the hold threshold: scored and shown to moderators, not under review.
    expect((await h.client.getSubmission({ id: s.id })).risk).toMatchObject({ score: 38, underReview: false });
    expect((await published(s.id)).at(-1)?.risk).toEqual({ score: 38, reasons: row.risk_reasons, underReview: false });
  });
});
