import { createHash } from 'node:crypto';
import { refreshMetricsJobSchema, type FetchedPost, type RefreshMetricsJob } from '@clipit/contracts';
import { buildEventEnvelope, deterministicEventId } from '@clipit/service-kit';
import { decidedProgressSchema, keptEventSchema, KeptOutcome, parseJobData, type Decided } from '@clipit/worker-kit';
import type { Logger } from 'pino';
import { z } from 'zod';
import { postsFetched } from '../metrics.js';
import { mapLookup } from '../x-api/lookup-mapping.js';
import type { EventSink, FollowUpQueue, MetricsFetchedEvent, MetricsJob, QueuePause, RateLimitPause, XPostsLookup } from '../ports.js';
import { pauseAfterAnswer, type RateLimitPolicy } from './rate-limit.js';

type JobPost = RefreshMetricsJob['posts'][number];

/** X answered 429: every worker is paused (done) and this job goes back to the queue without using an attempt. */
export class RateLimitedError extends Error {
  constructor(readonly pause: RateLimitPause) {
    super(`X's rate limit: every worker waits ${pause.waitMs} ms (${pause.reason})`);
    this.name = 'RateLimitedError';
  }
}

/** X answered 5xx (or a 200 that is no lookup answer): retried with the job's backoff. */
export class XServerError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`X answered ${status}: ${detail}`);
    this.name = 'XServerError';
  }
}

/** X refused the request itself (401 bad token, 403 app not allowed, 400): asking again gives the same answer. */
export class XRejectedError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`X refused the lookup with ${status}: ${detail}`);
    this.name = 'XRejectedError';
  }
}

// Unusable job data, and a decided outcome JetStream did not take: the kit's (ADR 0034).
export { InvalidJobError, PublishFailedError } from '@clipit/worker-kit';

/** X kept leaving the same posts out of its answers: the job fails (after stating the rest), naming them; the scheduler queues them again when due. */
export class PostsUnansweredError extends Error {
  constructor(readonly posts: JobPost[]) {
    super(
      `X left ${posts.length} post(s) out of its answer ${posts.length === 1 ? '' : 'each '}time: ${posts.map((p) => p.externalId).join(', ')}`,
    );
    this.name = 'PostsUnansweredError';
  }
}

/** The batch id of the job that asks again for the posts X left out of `batchId`'s answer: `<root>.again<n>`. */
export function followUpBatchId(batchId: string): { batchId: string; round: number } {
  const m = /^(.*)\.again(\d+)$/.exec(batchId);
  const root = m ? m[1]! : batchId;
  const round = m ? Number(m[2]) + 1 : 1;
  const suffix = `.again${round}`;
  // Batch ids are at most 128 characters: a long root is replaced by its hash (still deterministic).
  const base = root.length + suffix.length <= 128 ? root : `h${createHash('sha256').update(root).digest('hex').slice(0, 40)}`;
  return { batchId: `${base}${suffix}`, round };
}

/** How many times in a row this batch's posts were left out already (0 for a batch the scheduler queued). */
export function roundsOf(batchId: string): number {
  const m = /\.again(\d+)$/.exec(batchId);
  return m ? Number(m[1]) : 0;
}

const jobPostsSchema = z.array(z.object({ submissionId: z.string(), externalId: z.string() }));
const decidedSchema = decidedProgressSchema({
  event: keptEventSchema(['metrics.fetched']).optional(),
  followUp: z.object({ batchId: z.string(), posts: jobPostsSchema }).optional(),
  unanswered: jobPostsSchema.optional(),
});

/**
 * What a job keeps in its progress once X has answered: the event to state (none when X answered about
 * none of the posts), the follow-up job for posts X left out, or those posts when they were left out too
 * often. Kept in Redis with the job, so it survives the worker, a delay and a retry.
 */
export type DecidedProgress = Decided<MetricsFetchedEvent, { followUp?: RefreshMetricsJob; unanswered?: JobPost[] }>;

export function recordedProgress(progress: unknown): DecidedProgress | undefined {
  const parsed = decidedSchema.safeParse(progress);
  return parsed.success ? (parsed.data as unknown as DecidedProgress) : undefined;
}

/** What a finished job answers (its BullMQ return value). */
export interface RefreshResult {
  eventId?: string;
  found: number;
  missing: number;
  /** Posts put in a follow-up job, and its batch id. */
  requeued: number;
  followUpBatchId?: string;
}

export interface RefreshMetricsHandlerDeps {
  x: XPostsLookup;
  events: EventSink;
  followUps: FollowUpQueue;
  queuePause: QueuePause;
  logger: Logger;
  rateLimit: RateLimitPolicy;
  partialRetryDelayMs: number;
  partialRetryMax: number;
  now?: () => number;
}

/**
 * One refresh-metrics job: one lookup of its posts at X, then one metrics.fetched stating what X said of
 * each post it answered about (found with metrics, or missing with X's reason); posts X left out go to a
 * follow-up job. X's rate limit pauses every worker (QueuePause) instead of failing the job.
 *
 * Safe to run again: once X has answered, the decision is kept in the job before anything is published,
 * and a later run states it again as it is (same event id, derived from the batch id) without asking X.
 */
export class RefreshMetricsHandler {
  /** 429s without a usable reset in a row, for the backoff (this process's view; any other answer ends the run). */
  private throttledInARow = 0;
  private readonly now: () => number;
  private readonly outcomes: KeptOutcome<MetricsFetchedEvent, DecidedProgress>;

  constructor(private readonly deps: RefreshMetricsHandlerDeps) {
    this.now = deps.now ?? Date.now;
    this.outcomes = new KeptOutcome({ schema: decidedSchema, events: deps.events });
  }

  async process(job: MetricsJob, signal: AbortSignal): Promise<RefreshResult> {
    const data = this.parseJob(job);
    const log = this.deps.logger.child({ jobId: job.id, batchId: data.batchId, posts: data.posts.length, attempt: job.attemptsMade + 1 });
    // Kept before it is published: from here on every run states this very outcome, X is not asked again.
    const decided = await this.outcomes.decideOnce(
      job,
      () => this.decide(data, signal, log),
      (recorded) =>
        log.info(
          { eventId: recorded.event?.id, publishFailures: recorded.publishFailures ?? 0 },
          'batch decided earlier: stating the same outcome again',
        ),
    );
    return this.finish(job, decided, log);
  }

  /**
   * For a job BullMQ failed without running it (its workers kept dying): states what an earlier run
   * decided, if anything (nothing was lost otherwise: X was not asked or its answer was not kept).
   */
  async finishRecorded(job: MetricsJob): Promise<RefreshResult | undefined> {
    const recorded = this.outcomes.recorded(job.progress);
    if (!recorded) return undefined;
    return this.finish(job, recorded, this.deps.logger.child({ jobId: job.id }));
  }

  private parseJob(job: MetricsJob): RefreshMetricsJob {
    return parseJobData(refreshMetricsJobSchema, job, 'refresh-metrics');
  }

  private async decide(data: RefreshMetricsJob, signal: AbortSignal, log: Logger): Promise<Omit<DecidedProgress, 'stage'>> {
    const ids = [...new Set(data.posts.map((p) => p.externalId))];
    const answer = await this.deps.x.lookup(ids, signal);
    const pause = pauseAfterAnswer(
      answer.status,
      answer.rate,
      this.now(),
      answer.status === 429 ? this.throttledInARow + 1 : 0,
      this.deps.rateLimit,
    );
    this.throttledInARow = answer.status === 429 && pause?.reason === 'too-many-requests-backoff' ? this.throttledInARow + 1 : 0;
    if (pause) {
      await this.deps.queuePause.pause(pause);
      log.warn(
        { status: answer.status, reason: pause.reason, waitMs: pause.waitMs, rate: answer.rate },
        "X's rate limit: every worker pauses",
      );
    }
    if (!('body' in answer)) {
      if (answer.status === 429) throw new RateLimitedError(pause!);
      if (answer.status >= 500) throw new XServerError(answer.status, answer.detail);
      throw new XRejectedError(answer.status, answer.detail);
    }
    let mapped;
    try {
      mapped = mapLookup(data.posts, answer.body);
    } catch (err) {
      throw new XServerError(200, (err as Error).message);
    }
    for (const post of mapped.stated) postsFetched.inc({ outcome: post.outcome });
    if (mapped.unanswered.length > 0) postsFetched.inc({ outcome: 'unanswered' }, mapped.unanswered.length);
    const decided: Omit<DecidedProgress, 'stage'> = {};
    if (mapped.stated.length > 0) decided.event = this.fetchedEvent(data.batchId, answer.answeredAt, mapped.stated);
    if (mapped.unanswered.length > 0) {
      if (roundsOf(data.batchId) < this.deps.partialRetryMax)
        decided.followUp = { batchId: followUpBatchId(data.batchId).batchId, posts: mapped.unanswered };
      else decided.unanswered = mapped.unanswered;
      log.warn(
        { unanswered: mapped.unanswered.map((p) => p.externalId), followUp: decided.followUp?.batchId },
        'X left posts out of its answer',
      );
    }
    return decided;
  }

  private fetchedEvent(batchId: string, answeredAt: Date, posts: FetchedPost[]): MetricsFetchedEvent {
    // The id is the batch's: a job run again (a crash after the decision, a NATS outage) states the same fact.
    return buildEventEnvelope(
      'metrics.fetched',
      { batchId, fetchedAt: answeredAt.toISOString(), posts },
      { id: deterministicEventId('metrics.fetched', batchId), correlationId: `metrics:${batchId}`, occurredAt: answeredAt },
    );
  }

  /** The event goes out, then the follow-up job is queued; a failed publication throws PublishFailedError after counting it in the job. */
  private async finish(job: MetricsJob, decided: DecidedProgress, log: Logger): Promise<RefreshResult> {
    const { event, followUp, unanswered } = decided;
    await this.outcomes.publish(job, decided);
    if (followUp) await this.deps.followUps.add(followUp, this.deps.partialRetryDelayMs);
    const posts = event?.data.posts ?? [];
    const result: RefreshResult = {
      ...(event ? { eventId: event.id } : {}),
      found: posts.filter((p) => p.outcome === 'found').length,
      missing: posts.filter((p) => p.outcome === 'missing').length,
      requeued: followUp?.posts.length ?? 0,
      ...(followUp ? { followUpBatchId: followUp.batchId } : {}),
    };
    log.debug({ ...result }, 'batch stated');
    if (unanswered && unanswered.length > 0) throw new PostsUnansweredError(unanswered);
    return result;
  }
}
