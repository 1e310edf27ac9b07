import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { FetchedPost, MetricsFetchedV1 } from '@clipit/contracts';
import { createMetricsQueue, type MetricsQueue } from '@clipit/media-queue';
import { testInfra } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MetricsSchedulerService } from '../../src/services/metrics-scheduler.service.js';
import { rejected, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// Post metrics against the real Postgres, NATS and Redis (ADR 0029): the scheduler queueing due posts
// into the real BullMQ metrics queue, and the metrics worker's `metrics.fetched` (and identity's
// `user.x-linked`) published on the run's stream as their owners publish them, applied through the inbox.

let h: SubmissionsHarness;
let metricsQueue: MetricsQueue;

beforeAll(async () => {
  // The timer stays out of the way: each test runs the scheduler's round itself.
  h = await startSubmissions({ METRICS_SCHEDULER_INTERVAL_SECONDS: 3600 });
  metricsQueue = createMetricsQueue({ connection: { url: testInfra().redisUrl }, prefix: h.names.redisKeyPrefix });
});

afterAll(async () => {
  await metricsQueue?.obliterate({ force: true }).catch(() => undefined);
  await metricsQueue?.close();
  await h?.stop();
});

const MIN = 60_000;
const scheduler = () => h.app.get(MetricsSchedulerService);

async function approvedSubmission(userId = randomUUID()) {
  const created = await h.newSubmission(userId);
  await h.client.approve({ submissionId: created.id });
  return { ...created, userId };
}

function found(s: { id: string; externalId: string }, patch: Partial<Extract<FetchedPost, { outcome: 'found' }>> = {}): FetchedPost {
  return {
    submissionId: s.id,
    externalId: s.externalId,
    outcome: 'found',
    metrics: { views: 1200, likes: 30, retweets: 4, replies: 2, quotes: 1, bookmarks: 5 },
    publishedAt: new Date(Date.now() - 60 * MIN).toISOString(),
    authorId: '4242',
    text: 'a clip of the stream',
    raw: { id: s.externalId, public_metrics: { impression_count: 1200 } },
    ...patch,
  };
}

/** Publishes what the metrics worker states for a batch, and waits until the service consumed it. */
async function fetched(posts: FetchedPost[], fetchedAt: Date, batchId = `metrics-test-${randomUUID()}`): Promise<MetricsFetchedV1> {
  const data = { batchId, fetchedAt: fetchedAt.toISOString(), posts };
  const { seq } = await h.mediaWorker.publish('metrics.fetched', data);
  await h.consumerPast(seq);
  return data;
}

const updates = (submissionId: string) =>
  h.rows<{ views: number; previous: number; verified: string | null; fetched: string }>(
    `SELECT (envelope->'data'->'submission'->>'views')::int AS views, (envelope->'data'->>'previousViews')::int AS previous,
            envelope->'data'->'submission'->>'verifiedAt' AS verified, envelope->'data'->>'fetchedAt' AS fetched
       FROM outbox WHERE type = 'metrics.updated' AND envelope->'data'->'submission'->>'id' = $1 ORDER BY seq`,
    [submissionId],
  );
const history = (submissionId: string) =>
  h.count('SELECT count(*) FROM submission_metrics_history WHERE submission_id = $1', [submissionId]);
const row = async (id: string) =>
  (
    await h.rows<Record<string, unknown>>(
      `SELECT views::int, likes::int, retweets::int, replies::int, quote_count::int, bookmark_count::int, verified_at, last_metrics_fetch,
              metrics_due_at, metrics_queued_at, metrics_missing_count, post_status, raw_metrics, updated_at FROM submissions WHERE id = $1`,
      [id],
    )
  )[0]!;

describe('verification codes', () => {
  it('every new submission gets its own, returned to the owner', async () => {
    const a = await h.newSubmission();
    const b = await h.newSubmission();
    expect(a.verificationCode).toMatch(/^CLIP-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(b.verificationCode).not.toBe(a.verificationCode);
    expect((await h.client.getSubmission({ id: a.id })).verificationCode).toBe(a.verificationCode);
    expect((await h.client.listMySubmissions({ userId: a.userId })).submissions.map((s) => s.verificationCode)).toEqual([
      a.verificationCode,
    ]);
  });
});

describe('the metrics scheduler', () => {
  it('queues every due approved post once, in batches of at most 100, even with two rounds running at once', async () => {
    const posts = await Promise.all(Array.from({ length: 150 }, () => approvedSubmission()));
    const pending = await h.newSubmission();
    const now = new Date(Date.now() + 1000);

    const [a, b] = await Promise.all([scheduler().queueDue(now), scheduler().queueDue(now)]);
    expect(a + b).toBeGreaterThanOrEqual(150);

    const jobs = await metricsQueue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const job of jobs) {
      expect(job.name).toBe('refresh-metrics');
      expect(job.id).toBe(job.data.batchId);
      expect(job.id).not.toContain(':');
      expect(job.data.posts.length).toBeLessThanOrEqual(100);
    }
    const queued = jobs.flatMap((j) => j.data.posts.map((p) => p.submissionId));
    expect(queued.length).toBe(new Set(queued).size); // no post twice
    expect(queued.length).toBe(a + b);
    for (const p of posts) expect(queued.filter((id) => id === p.id)).toHaveLength(1);
    expect(queued).not.toContain(pending.id);
    const one = jobs.flatMap((j) => j.data.posts).find((p) => p.submissionId === posts[0]!.id);
    expect(one).toEqual({ submissionId: posts[0]!.id, externalId: posts[0]!.externalId });
    expect(
      await h.count('SELECT count(*) FROM submissions WHERE id = ANY($1::uuid[]) AND metrics_queued_at IS NOT NULL', [
        posts.map((p) => p.id),
      ]),
    ).toBe(150);

    // Queued posts are not due again: another round adds nothing…
    expect(await scheduler().queueDue(new Date(now.getTime() + MIN))).toBe(0);
    // …until their answer is overdue (a lost job): then they are queued again, under new batch ids.
    const before = new Set(jobs.map((j) => j.id));
    const later = new Date(now.getTime() + 61 * MIN);
    expect(await scheduler().queueDue(later)).toBeGreaterThanOrEqual(150);
    const again = (await metricsQueue.getJobs(['waiting'])).filter((j) => !before.has(j.id));
    const requeued = again.flatMap((j) => j.data.posts.map((p) => p.submissionId));
    for (const p of posts) expect(requeued.filter((id) => id === p.id)).toHaveLength(1);
  });
});

describe('applying metrics.fetched', () => {
  it('stores the counts, a history point and the next due time; a post verified by its code is published as metrics.updated', async () => {
    const s = await approvedSubmission();
    const fetchedAt = new Date();
    await fetched([found(s, { text: `Clipped it! ${s.verificationCode.toLowerCase()} #clipit` })], fetchedAt);

    const r = await row(s.id);
    expect(r).toMatchObject({
      views: 1200,
      likes: 30,
      retweets: 4,
      replies: 2,
      quote_count: 1,
      bookmark_count: 5,
      verified_at: fetchedAt,
      last_metrics_fetch: fetchedAt,
      metrics_queued_at: null,
      metrics_missing_count: 0,
      post_status: 'found',
      raw_metrics: { id: s.externalId, public_metrics: { impression_count: 1200 } },
    });
    // An hour-old post is read again 30 minutes later.
    expect(r['metrics_due_at']).toEqual(new Date(fetchedAt.getTime() + 30 * MIN));
    expect(await history(s.id)).toBe(1);
    expect(await updates(s.id)).toEqual([
      { views: 1200, previous: 0, verified: fetchedAt.toISOString(), fetched: fetchedAt.toISOString() },
    ]);
    const seen = await h.client.getSubmission({ id: s.id });
    expect(seen).toMatchObject({
      verificationCode: s.verificationCode,
      verifiedAt: fetchedAt.toISOString(),
      lastMetricsFetch: fetchedAt.toISOString(),
    });
    expect(Number(seen.views)).toBe(1200);
  });

  it('a replay or an earlier read arriving late changes nothing; a later read with the same counted values adds history but no event', async () => {
    const s = await approvedSubmission();
    const t1 = new Date();
    const first = await fetched([found(s, { text: s.verificationCode })], t1);
    const after = await row(s.id);
    // The same batch again under another event id (past the inbox), and an earlier read.
    await fetched(first.posts, t1, first.batchId);
    await fetched(
      [found(s, { metrics: { views: 5, likes: 0, retweets: 0, replies: 0, quotes: 0, bookmarks: 0 } })],
      new Date(t1.getTime() - MIN),
    );
    expect(await row(s.id)).toEqual(after);
    expect(await history(s.id)).toBe(1);
    expect(await updates(s.id)).toHaveLength(1);

    // Later, only bookmarks moved: history grows, nothing that counts changed.
    await fetched(
      [found(s, { metrics: { views: 1200, likes: 30, retweets: 4, replies: 2, quotes: 1, bookmarks: 9 } })],
      new Date(t1.getTime() + 30 * MIN),
    );
    expect(await history(s.id)).toBe(2);
    expect(await updates(s.id)).toHaveLength(1);
    // Views moved: published, with what counted before.
    await fetched(
      [found(s, { metrics: { views: 2000, likes: 31, retweets: 4, replies: 2, quotes: 1, bookmarks: 9 } })],
      new Date(t1.getTime() + 60 * MIN),
    );
    expect((await updates(s.id)).map((u) => [u.views, u.previous])).toEqual([
      [1200, 0],
      [2000, 1200],
    ]);
    expect(await h.deadLetters()).toBe(0);
  });

  it('an unverified post keeps counting 0 until its author turns out to be the submitter’s linked X account', async () => {
    const userId = randomUUID();
    const s = await approvedSubmission(userId);
    const t1 = new Date();
    await fetched([found(s, { authorId: '77001' })], t1);
    expect(await row(s.id)).toMatchObject({ views: 1200, verified_at: null });
    expect(await updates(s.id)).toEqual([]);
    // Its owner sees the counts X gave all the same.
    expect(Number((await h.client.getSubmission({ id: s.id })).views)).toBe(1200);

    const link = await h.mediaWorker.publish('user.x-linked', {
      userId,
      xUserId: '77001',
      xUsername: 'clipper',
      linkedAt: new Date().toISOString(),
    });
    await h.consumerPast(link.seq);
    expect(await h.rows('SELECT x_user_id, x_username FROM linked_x_accounts WHERE user_id = $1', [userId])).toEqual([
      { x_user_id: '77001', x_username: 'clipper' },
    ]);
    // An older link arriving late does not replace it.
    const old = await h.mediaWorker.publish('user.x-linked', {
      userId,
      xUserId: '99999',
      xUsername: 'old',
      linkedAt: new Date(Date.now() - 3600_000).toISOString(),
    });
    await h.consumerPast(old.seq);

    const t2 = new Date(t1.getTime() + 30 * MIN);
    await fetched([found(s, { authorId: '77001' })], t2);
    expect(await row(s.id)).toMatchObject({ verified_at: t2 });
    expect(await updates(s.id)).toEqual([{ views: 1200, previous: 0, verified: t2.toISOString(), fetched: t2.toISOString() }]);

    // Another user's post by that X account is not verified by it.
    const other = await approvedSubmission();
    await fetched([found(other, { authorId: '77001' })], t2);
    expect(await row(other.id)).toMatchObject({ verified_at: null });
  });

  it('a missing post keeps its counts; after 3 misses in a row it is no longer scheduled; found again it is', async () => {
    const s = await approvedSubmission();
    const t0 = new Date();
    await fetched([found(s, { text: s.verificationCode })], t0);
    const miss = (n: number) => ({
      submissionId: s.id,
      externalId: s.externalId,
      outcome: 'missing' as const,
      reason: `Not Found Error ${n}`,
    });
    await fetched([miss(1)], new Date(t0.getTime() + 30 * MIN));
    expect(await row(s.id)).toMatchObject({
      views: 1200,
      post_status: 'missing',
      metrics_missing_count: 1,
      last_metrics_fetch: new Date(t0.getTime() + 30 * MIN),
    });
    expect((await row(s.id))['metrics_due_at']).not.toBeNull();
    await fetched([miss(2)], new Date(t0.getTime() + 60 * MIN));
    await fetched([miss(3)], new Date(t0.getTime() + 90 * MIN));
    expect(await row(s.id)).toMatchObject({
      views: 1200,
      verified_at: t0,
      post_status: 'missing',
      metrics_missing_count: 3,
      metrics_due_at: null,
    });
    expect(await updates(s.id)).toHaveLength(1);
    expect(await history(s.id)).toBe(1);
    // Not scheduled: a round far in the future does not queue it.
    await scheduler().queueDue(new Date(Date.now() + 365 * 24 * 60 * MIN));
    expect(await row(s.id)).toMatchObject({ metrics_due_at: null, metrics_queued_at: null });

    const back = new Date(t0.getTime() + 120 * MIN);
    await fetched([found(s, { text: s.verificationCode })], back);
    expect(await row(s.id)).toMatchObject({ post_status: 'found', metrics_missing_count: 0 });
    expect((await row(s.id))['metrics_due_at']).not.toBeNull();
  });

  it('ignores posts not approved (pending, rejected) or unknown, and still applies the rest of the batch', async () => {
    const pending = await h.newSubmission();
    const rejectedOne = await h.newSubmission();
    await h.client.reject({ submissionId: rejectedOne.id, reason: 'Not a clip' });
    const ok = await approvedSubmission();
    await fetched(
      [
        found(pending, { text: pending.verificationCode }),
        found(rejectedOne),
        found({ id: randomUUID(), externalId: '123' }),
        found(ok, { text: ok.verificationCode }),
      ],
      new Date(),
    );
    expect(await row(pending.id)).toMatchObject({ views: 0, last_metrics_fetch: null, verified_at: null });
    expect(await row(rejectedOne.id)).toMatchObject({ views: 0, last_metrics_fetch: null });
    expect(await row(ok.id)).toMatchObject({ views: 1200 });
    expect(await h.deadLetters()).toBe(0);
  });
});

describe('GetMetricsHistory', () => {
  it('answers the owner and admins with the counts, verification and points oldest first; anyone else as for no submission', async () => {
    const s = await approvedSubmission();
    const t0 = new Date(Date.now() - 10 * MIN);
    const at = (m: number) => new Date(t0.getTime() + m * MIN);
    const read = (views: number) => ({ views, likes: views / 100, retweets: 1, replies: 0, quotes: 0, bookmarks: 2 });
    // Published in an order other than time: the history is read in time order anyway.
    await fetched([found(s, { metrics: read(300) })], at(2));
    await fetched([found(s, { metrics: read(400), text: s.verificationCode })], at(3));

    const mine = await h.client.getMetricsHistory({ submissionId: s.id, userId: s.userId, isAdmin: false });
    expect(mine).toMatchObject({
      submissionId: s.id,
      verificationCode: s.verificationCode,
      verifiedAt: at(3).toISOString(),
      lastMetricsFetch: at(3).toISOString(),
    });
    expect(Number(mine.views)).toBe(400);
    expect(Number(mine.bookmarkCount)).toBe(2);
    expect(mine.points.map((p) => [p.at, Number(p.views)])).toEqual([
      [at(2).toISOString(), 300],
      [at(3).toISOString(), 400],
    ]);
    const admin = await h.client.getMetricsHistory({ submissionId: s.id, userId: randomUUID(), isAdmin: true });
    expect(admin.points).toHaveLength(2);

    for (const request of [
      { submissionId: s.id, userId: randomUUID(), isAdmin: false },
      { submissionId: randomUUID(), userId: s.userId, isAdmin: false },
      { submissionId: randomUUID(), userId: s.userId, isAdmin: true },
      { submissionId: 'not-a-uuid', userId: s.userId, isAdmin: false },
    ]) {
      const err = await rejected(h.client.getMetricsHistory(request));
      expect([err.code, err.message]).toEqual([status.NOT_FOUND, 'Submission not found']);
    }
  });
});

describe('GetTaggedViewHistories (issue 37)', () => {
  it('answers the streamer a clip is tagged with its latest 100 reads oldest first, one call for many clips, and nothing of others’ clips', async () => {
    const streamer = randomUUID();
    const tagged = await approvedSubmission();
    const quiet = await approvedSubmission();
    const elsewhere = await approvedSubmission();
    const untagged = await approvedSubmission();
    await h.rows('UPDATE submissions SET streamer_id = $1 WHERE id = ANY($2::uuid[])', [streamer, [tagged.id, quiet.id]]);
    await h.rows('UPDATE submissions SET streamer_id = $1 WHERE id = $2', [randomUUID(), elsewhere.id]);
    // 102 reads of the tagged clip, one of each of the others (the last two are the latest).
    const t0 = new Date(Date.now() - 200 * MIN);
    const at = (m: number) => new Date(t0.getTime() + m * MIN);
    const read = (views: number) => ({ views, likes: 2, retweets: 1, replies: 0, quotes: 0, bookmarks: 0 });
    await h.rows(
      `INSERT INTO submission_metrics_history (submission_id, fetched_at, views, likes, retweets, replies, quotes, bookmarks)
       SELECT $1, $2::timestamptz + make_interval(mins => n), n * 10, 2, 1, 0, 0, 0 FROM generate_series(0, 99) AS n`,
      [tagged.id, t0],
    );
    await fetched([found(tagged, { metrics: read(1_010) })], at(100));
    await fetched([found(tagged, { metrics: read(1_020) }), found(elsewhere), found(untagged)], at(101));

    const answer = await h.client.getTaggedViewHistories({
      streamerId: streamer,
      submissionIds: [tagged.id, elsewhere.id, untagged.id, quiet.id, randomUUID()],
    });
    expect(answer.histories.map((x) => x.submissionId)).toEqual([tagged.id, quiet.id]);
    const points = answer.histories[0]!.points;
    expect(points).toHaveLength(100);
    expect(points[0]).toEqual({ at: at(2).toISOString(), views: '20', likes: '2', retweets: '1', replies: '0' });
    expect(points.at(-1)).toMatchObject({ at: at(101).toISOString(), views: '1020' });
    expect(answer.histories[1]!.points).toEqual([]);

    // Another streamer asking for the same clips reads nothing.
    expect(await h.client.getTaggedViewHistories({ streamerId: randomUUID(), submissionIds: [tagged.id, quiet.id] })).toEqual({
      histories: [],
    });
    const tooMany = await rejected(
      h.client.getTaggedViewHistories({ streamerId: streamer, submissionIds: Array.from({ length: 101 }, () => randomUUID()) }),
    );
    expect([tooMany.code, tooMany.message]).toEqual([status.INVALID_ARGUMENT, 'At most 100 submissions at once']);
  });
});
