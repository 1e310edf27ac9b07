/**
 * Admission control for password hashing (ADR 0044). scrypt at production cost takes ~80 ms of a core; a
 * burst of sign-ups and log-ins once queued without bound on libuv's thread pool, and every call behind
 * the first few outlasted its caller's deadline. Here at most `concurrency` hashes run at once, the rest
 * wait in one first-in-first-out line, and a call whose hash would not be done within its budget is
 * refused at once, told when to come back, and costs nothing.
 *
 * Two kinds share the line: `sign-in` (a log-in, a password check of an existing account) may wait its
 * whole budget; `new-secret` (a sign-up, a reset request) is admitted only while the line would be done
 * within NEW_SECRET_SHARE of it, so under a burst the rest of the capacity goes to people who already
 * have an account. The line is never reordered: an admitted call's estimate holds, nothing overtakes it.
 */
export type HashKind = 'sign-in' | 'new-secret';

/** The share of the budget within which a sign-up or reset request is still admitted. */
export const NEW_SECRET_SHARE = 0.5;
/** The longest Retry-After told: past it the advice would mean nothing (the line is re-estimated anyway). */
export const MAX_RETRY_AFTER_SECONDS = 60;
/** Weight of the newest measurement in the running mean of a hash's time. */
const MEAN_WEIGHT = 0.2;

export interface HashQueueOptions {
  /** Hashes run at once (PASSWORD_HASH_CONCURRENCY). */
  concurrency: number;
  /** The longest a sign-in may take from arrival until its hash is done (PASSWORD_HASH_BUDGET_MS). */
  budgetMs: number;
  /** The estimate of one hash's time until one is measured (start-up calibration sets it). */
  initialMeanMs: number;
  now?: () => number;
}

/** A hash refused: the line would not be done in time. `retryAfterSeconds` says when to come back. */
export class HashQueueFull extends Error {
  constructor(
    readonly kind: HashKind,
    readonly retryAfterSeconds: number,
  ) {
    super(`password hashing is busy: try again in ${retryAfterSeconds} s`);
    this.name = 'HashQueueFull';
  }
}

interface Waiting {
  kind: HashKind;
  /** When its budget ends (ms, `now()` clock). */
  deadline: number;
  start: () => void;
  refuse: (err: HashQueueFull) => void;
}

export interface HashQueueState {
  running: number;
  waiting: number;
  meanMs: number;
}

export class HashQueue {
  private running = 0;
  private readonly line: (Waiting | undefined)[] = [];
  /** Index of the line's head: shifting a long array per start would cost O(n). */
  private head = 0;
  private mean: number;
  /** Until when the callers refused so far were told to come back (ms): each next one is told a later slot. */
  private retryHorizon = 0;
  private readonly now: () => number;

  constructor(private readonly options: HashQueueOptions) {
    if (!(options.concurrency >= 1)) throw new Error('HashQueue: concurrency must be at least 1');
    this.mean = Math.max(0.1, options.initialMeanMs);
    this.now = options.now ?? (() => performance.now());
  }

  get state(): HashQueueState {
    return { running: this.running, waiting: this.line.length - this.head, meanMs: this.mean };
  }

  /** Sets the estimate of one hash's time from a measurement (start-up runs a full pool of them). */
  calibrate(meanMs: number): void {
    this.mean = Math.max(0.1, meanMs);
  }

  /** The budget of a kind in ms. */
  budgetOf(kind: HashKind): number {
    return kind === 'sign-in' ? this.options.budgetMs : this.options.budgetMs * NEW_SECRET_SHARE;
  }

  /**
   * When a call of `kind` arriving now would be refused: the seconds to tell it to wait, else undefined.
   * Nothing is reserved: callers ask before their own cheap work (a lookup) so a refusal costs nothing,
   * and `run` asks again.
   */
  refusal(kind: HashKind): number | undefined {
    const ahead = this.running + this.state.waiting;
    // A free slot always takes the call, however slow one hash is: refusing then would serve nobody.
    if (ahead < this.options.concurrency) return undefined;
    return this.expectedDoneMs(ahead) > this.budgetOf(kind) ? this.retryAfter() : undefined;
  }

  /** Runs `work` (one hash) when a slot is free, or throws HashQueueFull at once when it would not be done within its budget. */
  async run<T>(kind: HashKind, work: () => Promise<T>): Promise<T> {
    const refused = this.refusal(kind);
    if (refused !== undefined) throw new HashQueueFull(kind, refused);
    if (this.running < this.options.concurrency && this.state.waiting === 0) this.running += 1;
    // startNext counts the slot as taken when it hands it over, so nobody arriving meanwhile takes it too.
    else await new Promise<void>((start, refuse) => this.line.push({ kind, deadline: this.now() + this.budgetOf(kind), start, refuse }));
    return this.execute(work);
  }

  /** Runs `work` in a slot already counted in `running`, and hands the slot on when it is done. */
  private async execute<T>(work: () => Promise<T>): Promise<T> {
    const started = this.now();
    try {
      const result = await work();
      this.measured(this.now() - started);
      return result;
    } finally {
      this.running -= 1;
      this.startNext();
    }
  }

  /**
   * Hands the free slot to the head of the line. A call whose budget would end before its hash could be
   * done (the machine slowed after it was admitted, or its caller has long given up) is refused here
   * instead, without hashing: nothing stale holds the line.
   */
  private startNext(): void {
    while (this.running < this.options.concurrency && this.head < this.line.length) {
      const next = this.line[this.head]!;
      this.line[this.head] = undefined;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.line.length) {
        this.line.splice(0, this.head);
        this.head = 0;
      }
      if (this.now() + this.mean > next.deadline) {
        next.refuse(new HashQueueFull(next.kind, this.retryAfter()));
        continue;
      }
      this.running += 1;
      next.start();
    }
  }

  /** When a call with `ahead` others before it (running or waiting) would be done, from now (ms). */
  private expectedDoneMs(ahead: number): number {
    return Math.ceil((ahead + 1) / this.options.concurrency) * this.mean;
  }

  /**
   * The Retry-After for a refusal now: when the line as it stands would be done, but never the same slot
   * as the callers refused before: each refusal takes the next slot of the pool's throughput (one hash
   * time over the concurrency) after the last one told, so a refused crowd comes back spread out at the
   * rate it can be served, not all in the same second.
   */
  private retryAfter(): number {
    const now = this.now();
    const drained = now + this.expectedDoneMs(this.running + this.state.waiting);
    this.retryHorizon = Math.max(drained, this.retryHorizon) + this.mean / this.options.concurrency;
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((this.retryHorizon - now) / 1000)));
  }

  private measured(ms: number): void {
    this.mean = Math.max(0.1, this.mean + MEAN_WEIGHT * (ms - this.mean));
  }
}
