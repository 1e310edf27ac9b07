import type { EventEnvelope, MetricsFetchedV1, RefreshMetricsJob } from '@clipit/contracts';
import type { EventSink as KitEventSink, KeptJob } from '@clipit/worker-kit';

/** The headers X sends with its answers: the window's size, what is left of it, and when it resets (epoch seconds). */
export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  resetAtSeconds?: number;
}

/** One answer of X's post lookup: a 200 with its parsed body, or any other status with a bit of its body. */
export type XLookupAnswer =
  { status: 200; rate: RateLimitHeaders; body: unknown; answeredAt: Date } | { status: number; rate: RateLimitHeaders; detail: string };

/** X's post lookup as the job uses it (XApiClient); throws only when X did not answer at all. */
export interface XPostsLookup {
  lookup(ids: readonly string[], signal: AbortSignal): Promise<XLookupAnswer>;
}

/** Why every worker pauses: X said the window is used up (remaining 0, or a 429 with its reset), or a 429 without one. */
export type RateLimitReason = 'window-used-up' | 'too-many-requests' | 'too-many-requests-backoff';

export interface RateLimitPause {
  reason: RateLimitReason;
  waitMs: number;
}

/** Pauses the whole queue (every worker process) for a while: BullMQ's global rate limit. */
export interface QueuePause {
  pause(pause: RateLimitPause): Promise<void>;
}

/** Where posts X left out of an answer go: a new refresh-metrics job, run `delayMs` later. Adding the same batch id twice adds nothing. */
export interface FollowUpQueue {
  add(job: RefreshMetricsJob, delayMs: number): Promise<void>;
}

export type MetricsFetchedEvent = EventEnvelope<'metrics.fetched', MetricsFetchedV1>;

/** Where facts go (the kit's EventPublisher): resolves once JetStream has stored the event. */
export type EventSink = KitEventSink<MetricsFetchedEvent>;

/**
 * The parts of a BullMQ job the handler reads and writes. `progress` holds what the job decided (the
 * event and the follow-up), so a run after a crash or a NATS outage states the same fact without asking X again.
 */
export type MetricsJob = KeptJob;
