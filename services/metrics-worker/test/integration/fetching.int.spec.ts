// The metrics worker in this process against the real Redis (BullMQ), NATS JetStream and the X stand-in
// (libs/testing: a real HTTP server answering in X's shapes, with X's rate limiting): what it states for
// found, deleted and protected posts, a partial answer, X's 5xx, 429s with and without a reset, and a
// window used up to its last request. One job at a time, so the order of requests is the queue's.
import { deterministicEventId } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import type { MetricsWorkerApp } from '../../src/app.js';
import { MetricsWorkerHarness } from '../support/worker-harness.js';

const fastRetry = { backoff: { type: 'fixed', delay: 200 } } as const;

describe('metrics worker: one lookup per job (real Redis, JetStream, the X stand-in)', () => {
  const h = new MetricsWorkerHarness();
  let worker: MetricsWorkerApp;

  beforeAll(async () => {
    await h.start();
    worker = await h.startWorker({ METRICS_WORKER_CONCURRENCY: 1 });
  });

  afterAll(async () => {
    await h.stop();
  });

  beforeEach(() => {
    // A window that resets within a few seconds: a test's pause never outlasts it.
    h.x.setRateLimit(450, 2000);
  });

  it('states found posts with their metrics and deleted or protected ones as missing, in one event with an id derived from the batch', async () => {
    const job = await h.queueBatch(3);
    const [found, deleted, hidden] = job.posts as [(typeof job.posts)[0], (typeof job.posts)[0], (typeof job.posts)[0]];
    const x = h.x.setPost(found.externalId, {
      metrics: { impression_count: 12_345, like_count: 67, retweet_count: 8, reply_count: 9, quote_count: 2, bookmark_count: 4 },
      videoViews: 5_432,
      author_id: '2244994945',
      text: 'clip CLIP-7Q2X',
    });
    h.x.deletePost(deleted.externalId);
    h.x.deletePost(hidden.externalId, 'not-authorized');

    const { envelope, msgId, subject } = await h.waitForEvent(job.batchId);

    expect(subject).toBe(`${h.names.subjectPrefix}.metrics-worker.metrics.fetched.v1`);
    expect(envelope.id).toBe(deterministicEventId('metrics.fetched', job.batchId));
    expect(msgId).toBe(envelope.id);
    expect(envelope).toMatchObject({ type: 'metrics.fetched', source: 'metrics-worker', correlationId: `metrics:${job.batchId}` });
    expect(envelope.data.posts).toEqual([
      {
        ...found,
        outcome: 'found',
        metrics: { views: 12_345, likes: 67, retweets: 8, replies: 9, quotes: 2, bookmarks: 4, videoViews: 5_432 },
        publishedAt: x.created_at,
        authorId: '2244994945',
        text: 'clip CLIP-7Q2X',
        raw: {
          id: found.externalId,
          text: 'clip CLIP-7Q2X',
          edit_history_tweet_ids: [found.externalId],
          author_id: '2244994945',
          created_at: x.created_at,
          public_metrics: x.public_metrics,
          attachments: { media_keys: [x.video!.media_key] },
        },
      },
      { ...deleted, outcome: 'missing', reason: 'Not Found Error' },
      { ...hidden, outcome: 'missing', reason: 'Authorization Error' },
    ]);
    await h.waitForState(job.batchId, 'completed');
    const done = (await h.queue.getJob(job.batchId))!;
    expect(done.returnvalue).toEqual({ eventId: envelope.id, found: 1, missing: 2, requeued: 0 });
    expect(h.x.requests.filter((r) => r.ids.includes(found.externalId))).toHaveLength(1);
  });

  it('states what a partial answer said and asks again for the left-out post in a follow-up job', async () => {
    const job = await h.queueBatch(3);
    const left = job.posts[1]!;
    h.x.omitIds([left.externalId], 1);

    const first = await h.waitForEvent(job.batchId);
    expect(first.envelope.data.posts.map((p) => p.externalId)).toEqual([job.posts[0]!.externalId, job.posts[2]!.externalId]);
    const followUpId = `${job.batchId}.again1`;
    const second = await h.waitForEvent(followUpId);
    expect(second.envelope.data.posts).toEqual([expect.objectContaining({ ...left, outcome: 'found' })]);
    expect(second.envelope.id).toBe(deterministicEventId('metrics.fetched', followUpId));
    await h.waitForState(followUpId, 'completed');
    expect((await h.queue.getJob(job.batchId))!.returnvalue).toMatchObject({ found: 2, requeued: 1, followUpBatchId: followUpId });
  });

  it("retries X's 5xx with the job's backoff and states the batch once", async () => {
    h.x.failNext(2, 503);
    const job = await h.queueBatch(2, { jobOptions: fastRetry });
    await h.waitForState(job.batchId, 'completed');
    expect((await h.queue.getJob(job.batchId))!.attemptsMade).toBe(3);
    await waitFor(() => h.eventsFor(job.batchId)[0], 5000, 'the event');
    expect(await h.storedEventCount(job.batchId)).toBe(1);
  });

  it('on a 429 with a reset, waits for the reset without using an attempt, then states the batch', async () => {
    h.x.tooManyRequestsNext(1);
    const job = await h.queueBatch(2);
    await h.waitForEvent(job.batchId);
    await h.waitForState(job.batchId, 'completed');
    expect((await h.queue.getJob(job.batchId))!.attemptsMade).toBe(1);
    const asked = h.x.requests.filter((r) => r.ids.length === 0 || r.ids.includes(job.posts[0]!.externalId)).slice(-2);
    expect(asked.map((r) => r.status)).toEqual([429, 200]);
    // The next request waited for the window's reset (whole seconds; the stand-in's window is 2 s).
    expect(Math.floor(asked[1]!.at / 1000)).toBeGreaterThan(Math.floor(asked[0]!.at / 1000));
  });

  it('pauses when an answer used the last request of the window: the next request waits for the reset, and X never answers 429', async () => {
    h.x.setRateLimit(2, 3000);
    const before = h.x.counters.tooManyRequests;
    const jobs = [await h.queueBatch(1), await h.queueBatch(1), await h.queueBatch(1), await h.queueBatch(1)];
    for (const j of jobs) await h.waitForState(j.batchId, 'completed', 30_000);
    expect(h.x.counters.tooManyRequests).toBe(before);
    const times = jobs.map((j) => h.x.requests.find((r) => r.ids.includes(j.posts[0]!.externalId))!.at);
    // Two requests per 3 s window: the third came after the first window's reset.
    expect(times[2]! - times[0]!).toBeGreaterThan(1000);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/x_api_rate_limit_waits_total\{reason="window-used-up"[^}]*\} [1-9]/);
  });

  it('backs off exponentially on 429s without a reset, without using attempts', async () => {
    h.x.tooManyRequestsNext(2, { withReset: false });
    const job = await h.queueBatch(1);
    await h.waitForState(job.batchId, 'completed');
    expect((await h.queue.getJob(job.batchId))!.attemptsMade).toBe(1);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/x_api_rate_limit_waits_total\{reason="too-many-requests-backoff"[^}]*\} 2/);
    expect(metrics).toMatch(/x_api_requests_total\{outcome="too-many-requests"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/metrics_posts_fetched_total\{outcome="found"[^}]*\} [1-9]/);
  });

  it('is ready, and counts its requests by outcome', async () => {
    const ready = await fetch(`${worker.httpUrl}/health/ready`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/x_api_requests_total\{outcome="ok"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/x_api_requests_total\{outcome="server-error"[^}]*\} 2/);
    expect(metrics).toMatch(/metrics_jobs_total\{result="rate-limited"[^}]*\} [1-9]/);
  });
});
