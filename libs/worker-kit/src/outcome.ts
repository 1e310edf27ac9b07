import { z } from 'zod';

// A worker has no database and so no outbox: the job is the durable record of what it decided
// (ADR 0012, ADR 0019, ADR 0034). The decided outcome is written into the job's progress (kept in Redis
// with the job, through delays, failures and BullMQ's `job.retry()`) before anything is published;
// every later run of the job states that very outcome again instead of deciding anew.

/** An event as a job keeps it: the envelope the kit's EventPublisher publishes (its id is the message id). */
export interface KeptEvent {
  id: string;
  type: string;
}

/** Where a decided event goes (the service kit's EventPublisher): resolves once JetStream has stored it. */
export interface EventSink<E extends KeptEvent> {
  publishEnvelope(envelope: E): Promise<unknown>;
}

/**
 * What a job keeps in its progress once it has decided: the event to state (a worker may decide to
 * state none), what else the worker decided (its own fields), and how many publications failed so far.
 */
export type Decided<E extends KeptEvent, Extra extends object = object> = {
  stage: 'decided';
  event?: E;
  publishFailures?: number;
} & Extra;

/** The parts of a BullMQ job the kit reads and writes (BullMQ's Job has them; unit specs fake them). */
export interface KeptJob {
  id?: string | undefined;
  data: unknown;
  /** Attempts that already failed (BullMQ counts them); this run is attempt attemptsMade + 1. */
  attemptsMade: number;
  progress: unknown;
  updateProgress(value: object): Promise<void>;
  /** The attempts the job was queued with (BullMQ's `opts.attempts`; 1 when absent). */
  opts?: { attempts?: number | undefined };
}

/** Whether this run is the job's last attempt: a failure now is not retried by BullMQ. */
export function isLastAttempt(job: Pick<KeptJob, 'attemptsMade' | 'opts'>): boolean {
  return job.attemptsMade + 1 >= (job.opts?.attempts ?? 1);
}

/** The job data is not what the job's schema says; retrying cannot help (the job fails at once, `rejected`). */
export class InvalidJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidJobError';
  }
}

/**
 * The job decided its outcome (kept in its progress) but JetStream did not store the event (NATS down
 * or slow). Not the job's failure: the queue worker delays the job and publishes the kept event again
 * later, without using up an attempt and without deciding again.
 */
export class PublishFailedError<E extends KeptEvent = KeptEvent> extends Error {
  constructor(
    readonly event: E,
    /** Failed publications of this event so far, this one included (for the backoff). */
    readonly failures: number,
    options: { cause: unknown },
  ) {
    super(
      `could not publish ${event.type} ${event.id}: ${(options.cause as Error | undefined)?.message ?? String(options.cause)}`,
      options,
    );
    this.name = 'PublishFailedError';
  }
}

/** The job's data checked against its schema; InvalidJobError names the job, its kind and every bad field. */
export function parseJobData<S extends z.ZodType>(schema: S, job: Pick<KeptJob, 'id' | 'data'>, kind: string): z.infer<S> {
  const parsed = schema.safeParse(job.data);
  if (!parsed.success)
    throw new InvalidJobError(
      `job ${job.id} is not a ${kind} job: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** The schema of a kept event as a job's progress holds it: its id and one of `types`; the rest as it was. */
export function keptEventSchema<T extends string>(types: readonly [T, ...T[]]) {
  return z.object({ id: z.string(), type: z.enum(types) }).loose();
}

/** The schema of a decided progress: `stage: 'decided'`, the publication failures, and the worker's fields. */
export function decidedProgressSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ stage: z.literal('decided'), publishFailures: z.number().int().nonnegative().optional(), ...shape });
}

/**
 * The durable result of a job: reads what an earlier run decided, keeps a new decision before anything
 * is published, and publishes the kept event, counting failed publications in the job.
 */
export class KeptOutcome<E extends KeptEvent, P extends Decided<E>> {
  constructor(
    private readonly opts: {
      /** Recognises a decided progress (decidedProgressSchema); anything else means the job has not decided yet. */
      schema: z.ZodType;
      events: EventSink<E>;
    },
  ) {}

  /** What an earlier run of the job decided, if it did. */
  recorded(progress: unknown): P | undefined {
    const parsed = this.opts.schema.safeParse(progress);
    return parsed.success ? (parsed.data as P) : undefined;
  }

  /** Writes the decision into the job: from here on every run of the job states this very outcome. */
  async keep(job: KeptJob, decision: Omit<P, 'stage'>): Promise<P> {
    const decided = { stage: 'decided', ...decision } as P;
    await job.updateProgress(decided);
    return decided;
  }

  /**
   * The outcome an earlier run kept (`onRecorded` is told), or the one `decide` makes now, kept before
   * it is returned. A decision is made at most once per job, whatever crashes or outages come after.
   */
  async decideOnce(job: KeptJob, decide: () => Promise<Omit<P, 'stage'>>, onRecorded?: (recorded: P) => void): Promise<P> {
    const recorded = this.recorded(job.progress);
    if (recorded) {
      onRecorded?.(recorded);
      return recorded;
    }
    return this.keep(job, await decide());
  }

  /**
   * decideOnce for a job whose work may fail: a failure is thrown (BullMQ retries the job) unless this is
   * the job's last attempt and the run was not aborted (a worker shutting down hands the job back), in
   * which case `lastResort(err)` is the decision kept: a job's outcome is always stated, never left unsaid.
   */
  async decideOrGiveUp(
    job: KeptJob,
    signal: AbortSignal,
    steps: {
      decide: () => Promise<Omit<P, 'stage'>>;
      lastResort: (err: unknown) => Omit<P, 'stage'>;
      onRecorded?: (recorded: P) => void;
    },
  ): Promise<P> {
    return this.decideOnce(
      job,
      async () => {
        try {
          return await steps.decide();
        } catch (err) {
          if (signal.aborted || !isLastAttempt(job)) throw err;
          return steps.lastResort(err);
        }
      },
      steps.onRecorded,
    );
  }

  /**
   * Publishes the kept event, if the decision has one. A failed publication is counted in the job's
   * progress (the decision stays as it was) and thrown as PublishFailedError.
   */
  async publish(job: KeptJob, decided: P): Promise<void> {
    if (!decided.event) return;
    try {
      await this.opts.events.publishEnvelope(decided.event);
    } catch (cause) {
      const failures = (decided.publishFailures ?? 0) + 1;
      await job.updateProgress({ ...decided, publishFailures: failures });
      throw new PublishFailedError(decided.event, failures, { cause });
    }
  }
}
