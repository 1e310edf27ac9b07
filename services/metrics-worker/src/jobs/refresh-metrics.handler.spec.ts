import { randomUUID } from 'node:crypto';
import type { RefreshMetricsJob } from '@clipit/contracts';
import { deterministicEventId } from '@clipit/service-kit';
import pino from 'pino';
import type {
  EventSink,
  FollowUpQueue,
  MetricsFetchedEvent,
  MetricsJob,
  QueuePause,
  RateLimitPause,
  XLookupAnswer,
  XPostsLookup,
} from '../ports.js';
import {
  followUpBatchId,
  InvalidJobError,
  PostsUnansweredError,
  PublishFailedError,
  RateLimitedError,
  recordedProgress,
  RefreshMetricsHandler,
  XRejectedError,
  XServerError,
} from './refresh-metrics.handler.js';

const NOW = 1_800_000_000_000;
const window = (remaining: number, resetInSeconds = 600) => ({ limit: 450, remaining, resetAtSeconds: NOW / 1000 + resetInSeconds });
const xPost = (id: string) => ({
  id,
  text: `post ${id}`,
  edit_history_tweet_ids: [id],
  author_id: '77',
  created_at: '2026-11-20T10:00:00.000Z',
  public_metrics: { impression_count: 100, like_count: 1 },
});
const notFound = (id: string) => ({
  value: id,
  detail: `Could not find tweet with ids: [${id}].`,
  title: 'Not Found Error',
  resource_type: 'tweet',
  parameter: 'ids',
  resource_id: id,
  type: 'https://api.twitter.com/2/problems/resource-not-found',
});

/** X answering from a script, one answer per lookup; records the ids asked for. */
class ScriptedX implements XPostsLookup {
  readonly asked: string[][] = [];
  constructor(private readonly answers: XLookupAnswer[]) {}
  async lookup(ids: readonly string[]): Promise<XLookupAnswer> {
    this.asked.push([...ids]);
    const answer = this.answers.shift();
    if (!answer) throw new Error('X was asked more often than the test expected');
    return answer;
  }
}
const ok = (body: unknown, remaining = 400): XLookupAnswer => ({
  status: 200,
  rate: window(remaining),
  body,
  answeredAt: new Date(NOW - 5),
});

class RecordingSink implements EventSink {
  readonly published: MetricsFetchedEvent[] = [];
  failing = false;
  async publishEnvelope(envelope: MetricsFetchedEvent): Promise<unknown> {
    if (this.failing) throw new Error('NATS is down');
    this.published.push(envelope);
    return {};
  }
}
class RecordingQueue implements FollowUpQueue, QueuePause {
  readonly added: Array<{ job: RefreshMetricsJob; delayMs: number }> = [];
  readonly pauses: RateLimitPause[] = [];
  async add(job: RefreshMetricsJob, delayMs: number): Promise<void> {
    this.added.push({ job, delayMs });
  }
  async pause(pause: RateLimitPause): Promise<void> {
    this.pauses.push(pause);
  }
}
class InMemoryJob implements MetricsJob {
  progress: unknown = 0;
  readonly progressWrites: unknown[] = [];
  attemptsMade = 0;
  constructor(
    readonly data: unknown,
    readonly id = (data as RefreshMetricsJob).batchId,
  ) {}
  async updateProgress(value: object): Promise<void> {
    this.progress = value;
    this.progressWrites.push(value);
  }
}

function setup(answers: XLookupAnswer[], partialRetryMax = 5) {
  const x = new ScriptedX(answers);
  const events = new RecordingSink();
  const queue = new RecordingQueue();
  const handler = new RefreshMetricsHandler({
    x,
    events,
    followUps: queue,
    queuePause: queue,
    logger: pino({ level: 'silent' }),
    rateLimit: { marginMs: 1000, backoffMinMs: 5000, backoffMaxMs: 60_000 },
    partialRetryDelayMs: 30_000,
    partialRetryMax,
    now: () => NOW,
  });
  return { x, events, queue, handler };
}
const signal = new AbortController().signal;
const batch = (ids: string[], batchId = `b-${randomUUID()}`): RefreshMetricsJob => ({
  batchId,
  posts: ids.map((externalId) => ({ submissionId: randomUUID(), externalId })),
});

describe('RefreshMetricsHandler', () => {
  it('asks X once for the batch and states found and missing posts in one metrics.fetched with an id derived from the batch', async () => {
    const data = batch(['1', '2']);
    const { x, events, queue, handler } = setup([ok({ data: [xPost('1')], errors: [notFound('2')] })]);
    const job = new InMemoryJob(data);

    const result = await handler.process(job, signal);

    expect(x.asked).toEqual([['1', '2']]);
    expect(result).toEqual({ eventId: deterministicEventId('metrics.fetched', data.batchId), found: 1, missing: 1, requeued: 0 });
    expect(events.published).toHaveLength(1);
    expect(events.published[0]).toMatchObject({
      id: deterministicEventId('metrics.fetched', data.batchId),
      type: 'metrics.fetched',
      source: 'metrics-worker',
      correlationId: `metrics:${data.batchId}`,
      data: {
        batchId: data.batchId,
        fetchedAt: new Date(NOW - 5).toISOString(),
        posts: [
          {
            submissionId: data.posts[0]!.submissionId,
            outcome: 'found',
            metrics: { views: 100, likes: 1, retweets: 0, replies: 0, quotes: 0, bookmarks: 0 },
            authorId: '77',
          },
          { submissionId: data.posts[1]!.submissionId, outcome: 'missing', reason: 'Not Found Error' },
        ],
      },
    });
    // Decided (kept in the job) before it was published.
    expect(recordedProgress(job.progressWrites[0])?.event?.id).toBe(events.published[0]!.id);
    expect(queue.pauses).toEqual([]);
    expect(queue.added).toEqual([]);
  });

  it('asks X once per distinct post when two submissions carry the same post', async () => {
    const data = {
      batchId: 'dup',
      posts: [
        { submissionId: randomUUID(), externalId: '5' },
        { submissionId: randomUUID(), externalId: '5' },
      ],
    };
    const { x, events, handler } = setup([ok({ data: [xPost('5')] })]);
    await handler.process(new InMemoryJob(data), signal);
    expect(x.asked).toEqual([['5']]);
    expect(events.published[0]!.data.posts.map((p) => p.submissionId)).toEqual(data.posts.map((p) => p.submissionId));
  });

  it('uses an answer that spent the last request of the window, and pauses every worker until its reset', async () => {
    const { events, queue, handler } = setup([ok({ data: [xPost('1')] }, 0)]);
    await handler.process(new InMemoryJob(batch(['1'])), signal);
    expect(events.published).toHaveLength(1);
    expect(queue.pauses).toEqual([{ reason: 'window-used-up', waitMs: 601_000 }]);
  });

  it('on a 429 with a reset pauses every worker until then and gives the job back (nothing decided or stated)', async () => {
    const { events, queue, handler } = setup([{ status: 429, rate: window(0, 42), detail: 'Too Many Requests' }]);
    const job = new InMemoryJob(batch(['1']));
    await expect(handler.process(job, signal)).rejects.toEqual(new RateLimitedError({ reason: 'too-many-requests', waitMs: 43_000 }));
    expect(queue.pauses).toEqual([{ reason: 'too-many-requests', waitMs: 43_000 }]);
    expect(events.published).toEqual([]);
    expect(job.progressWrites).toEqual([]);
  });

  it('backs off exponentially on 429s without a reset in a row, and starts over after an answer', async () => {
    const tooMany: XLookupAnswer = { status: 429, rate: {}, detail: 'Too Many Requests' };
    const { queue, handler } = setup([tooMany, tooMany, tooMany, ok({ data: [xPost('1')] }), tooMany]);
    for (let i = 0; i < 3; i++)
      await expect(handler.process(new InMemoryJob(batch(['1'])), signal)).rejects.toBeInstanceOf(RateLimitedError);
    await handler.process(new InMemoryJob(batch(['1'])), signal);
    await expect(handler.process(new InMemoryJob(batch(['1'])), signal)).rejects.toBeInstanceOf(RateLimitedError);
    expect(queue.pauses.map((p) => p.waitMs)).toEqual([5000, 10_000, 20_000, 5000]);
  });

  it("fails the attempt on X's 5xx (retried with the job's backoff) and on a 200 that is no lookup answer", async () => {
    const { queue, handler } = setup([{ status: 503, rate: window(300), detail: 'Service Unavailable' }, ok('<html>')]);
    await expect(handler.process(new InMemoryJob(batch(['1'])), signal)).rejects.toBeInstanceOf(XServerError);
    await expect(handler.process(new InMemoryJob(batch(['1'])), signal)).rejects.toBeInstanceOf(XServerError);
    expect(queue.pauses).toEqual([]);
  });

  it('refuses for good when X refuses the request itself (a bad token)', async () => {
    const { handler } = setup([{ status: 401, rate: {}, detail: '{"title":"Unauthorized"}' }]);
    await expect(handler.process(new InMemoryJob(batch(['1'])), signal)).rejects.toBeInstanceOf(XRejectedError);
  });

  it('states what X answered and queues the posts it left out in a follow-up job, later', async () => {
    const data = batch(['1', '2', '3'], 'round-7');
    const { events, queue, handler } = setup([ok({ data: [xPost('1')], errors: [notFound('3')] })]);
    const result = await handler.process(new InMemoryJob(data), signal);
    expect(events.published[0]!.data.posts.map((p) => p.externalId)).toEqual(['1', '3']);
    expect(queue.added).toEqual([{ job: { batchId: 'round-7.again1', posts: [data.posts[1]] }, delayMs: 30_000 }]);
    expect(result).toMatchObject({ found: 1, missing: 1, requeued: 1, followUpBatchId: 'round-7.again1' });
  });

  it('states nothing when X answered about none of the posts, and queues them all again', async () => {
    const data = batch(['1', '2'], 'empty');
    const { events, queue, handler } = setup([ok({})]);
    expect(await handler.process(new InMemoryJob(data), signal)).toEqual({
      found: 0,
      missing: 0,
      requeued: 2,
      followUpBatchId: 'empty.again1',
    });
    expect(events.published).toEqual([]);
    expect(queue.added[0]!.job.posts).toEqual(data.posts);
  });

  it('after the last follow-up round states what it has, then fails naming the posts X kept leaving out', async () => {
    const data = batch(['1', '2'], 'b.again2');
    const { events, queue, handler } = setup([ok({ data: [xPost('1')] })], 2);
    await expect(handler.process(new InMemoryJob(data), signal)).rejects.toEqual(new PostsUnansweredError([data.posts[1]!]));
    expect(events.published).toHaveLength(1);
    expect(queue.added).toEqual([]);
  });

  it('keeps the decided batch when NATS does not take the event, and states the very same event later without asking X again', async () => {
    const data = batch(['1']);
    const { x, events, handler } = setup([ok({ data: [xPost('1')] })]);
    const job = new InMemoryJob(data);
    events.failing = true;
    await expect(handler.process(job, signal)).rejects.toBeInstanceOf(PublishFailedError);
    await expect(handler.process(job, signal)).rejects.toMatchObject({ failures: 2 });
    expect(recordedProgress(job.progress)).toMatchObject({ stage: 'decided', publishFailures: 2 });

    events.failing = false;
    const result = await handler.process(job, signal);
    expect(x.asked).toHaveLength(1);
    expect(events.published).toHaveLength(1);
    expect(events.published[0]).toEqual(recordedProgress(job.progressWrites[0])!.event);
    expect(result.eventId).toBe(deterministicEventId('metrics.fetched', data.batchId));
  });

  it('refuses a job whose data is not a batch of posts', async () => {
    const { x, handler } = setup([]);
    await expect(handler.process(new InMemoryJob({ batchId: 'x', posts: [] }, 'x'), signal)).rejects.toBeInstanceOf(InvalidJobError);
    await expect(
      handler.process(
        new InMemoryJob({ batchId: 'x', posts: [{ submissionId: randomUUID(), externalId: 'https://x.com/a/status/1' }] }, 'x'),
        signal,
      ),
    ).rejects.toThrow(/externalId/);
    expect(x.asked).toEqual([]);
  });
});

describe('followUpBatchId', () => {
  it('numbers the rounds after the batch id, and hashes a root too long to carry a suffix', () => {
    expect(followUpBatchId('2026-11-26T10.00-3')).toEqual({ batchId: '2026-11-26T10.00-3.again1', round: 1 });
    expect(followUpBatchId('2026-11-26T10.00-3.again1')).toEqual({ batchId: '2026-11-26T10.00-3.again2', round: 2 });
    const long = followUpBatchId('a'.repeat(128));
    expect(long.batchId).toMatch(/^h[0-9a-f]{40}\.again1$/);
    expect(followUpBatchId(long.batchId).batchId).toBe(long.batchId.replace(/1$/, '2'));
  });
});
