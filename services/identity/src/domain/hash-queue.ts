/**
 * Admission control for password hashing (ADR 0044). scrypt at production cost takes ~80 ms of a core; a
 * burst of sign-ups and log-ins once queued without bound on libuv's thread pool, and every call behind
 * the first few outlasted its caller's deadline. Here at most `concurrency` hashes run at once, the rest
 * wait in one first-in-first-out line, and a call whose hash would not be done in time is refused at once,
 * told when to come back, and costs nothing.
 *
 * "In time" is the sooner of two limits: the call's budget, and its caller's deadline less a margin for
 * what follows the hash (the database, the answer's trip). Two kinds share the line: `sign-in` (a log-in,
 * a password check of an existing account) may wait its whole budget; `new-secret` (a sign-up, a reset
 * request) is admitted only while the line would be done within NEW_SECRET_SHARE of it, so under a burst
 * the rest of the capacity goes to people who already have an account. The line is never reordered: an
 * admitted call's estimate holds, nothing overtakes it.
 */
export type HashKind = 'sign-in' | 'new-secret';

/** The share of the budget within which a sign-up or reset request is still admitted. */
export const NEW_SECRET_SHARE = 0.5;
/**
 * The longest Retry-After told. A refused crowd larger than the pool can serve within it is told the
 * window again from its start (see `retryAfter`), not all this number: a person waits at most this long.
 */
export const MAX_RETRY_AFTER_SECONDS = 30;
/** Weight of the newest measurement in the running mean of a hash's time (the admission estimate). */
const MEAN_WEIGHT = 0.2;
/** How many of the latest hash times the pool's pace (the Retry-After spread) is the median of. */
const PACE_WINDOW = 32;

export interface HashQueueOptions {
  /** Hashes run at once (PASSWORD_HASH_CONCURRENCY). */
  concurrency: number;
  /** The longest a sign-in may take from arrival until its hash is done (PASSWORD_HASH_BUDGET_MS). */
  budgetMs: number;
  /** The estimate of one hash's time until one is measured (start-up calibration sets it). */
  initialMeanMs: number;
  /**
   * What is kept of the caller's remaining time for the work after the hash (PASSWORD_HASH_DEADLINE_MARGIN_MS):
   * a call is admitted only if its hash would be done this long before its caller's deadline.
   */
  deadlineMarginMs?: number;
  /**
   * The ms the caller of the call being made still waits before its deadline, or undefined when it set
   * none: read when a call arrives (identity reads the gRPC call's deadline from the request context).
   */
  remainingMs?: () => number | undefined;
  now?: () => number;
  /** Runs `fn` after `ms` of the `now` clock; answers a function that cancels it. */
  setTimer?: (fn: () => void, ms: number) => () => void;
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
  /** When its hash must be done at the latest (ms, `now()` clock): its budget or its caller's deadline less the margin. */
  deadline: number;
  start: () => void;
  refuse: (err: HashQueueFull) => void;
  /** Started or refused: no longer waiting. */
  settled: boolean;
  cancelWatch?: () => void;
}

export interface HashQueueState {
  running: number;
  waiting: number;
  /** The admission estimate of one hash's time (running mean). */
  meanMs: number;
  /** The pool's pace: the median of the latest hash times, which spreads the Retry-After told. */
  paceMs: number;
}

const realTimer = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export class HashQueue {
  private running = 0;
  private waiting = 0;
  private readonly line: (Waiting | undefined)[] = [];
  /** Index of the line's head: shifting a long array per start would cost O(n). */
  private head = 0;
  private mean: number;
  /** The latest hash times (at most PACE_WINDOW), oldest first, and their median. */
  private recent: number[];
  private pace: number;
  /** Until when the callers refused so far were told to come back (ms): each next one is told a later slot. */
  private retryHorizon = 0;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  private readonly marginMs: number;
  private readonly remainingMs: () => number | undefined;

  constructor(private readonly options: HashQueueOptions) {
    if (!(options.concurrency >= 1)) throw new Error('HashQueue: concurrency must be at least 1');
    this.mean = Math.max(0.1, options.initialMeanMs);
    this.recent = [this.mean];
    this.pace = this.mean;
    this.now = options.now ?? (() => performance.now());
    this.setTimer = options.setTimer ?? realTimer;
    this.marginMs = Math.max(0, options.deadlineMarginMs ?? 0);
    this.remainingMs = options.remainingMs ?? (() => undefined);
  }

  get state(): HashQueueState {
    return { running: this.running, waiting: this.waiting, meanMs: this.mean, paceMs: this.pace };
  }

  /** Sets the estimate of one hash's time from a measurement (start-up runs a full pool of them). */
  calibrate(meanMs: number): void {
    this.mean = Math.max(0.1, meanMs);
    this.recent = [this.mean];
    this.pace = this.mean;
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
    return this.admission(kind).retryAfter;
  }

  /** Runs `work` (one hash) when a slot is free, or throws HashQueueFull at once when it would not be done in time. */
  async run<T>(kind: HashKind, work: () => Promise<T>): Promise<T> {
    const { retryAfter, limitMs } = this.admission(kind);
    if (retryAfter !== undefined) throw new HashQueueFull(kind, retryAfter);
    if (this.running < this.options.concurrency && this.waiting === 0) this.running += 1;
    // startNext counts the slot as taken when it hands it over, so nobody arriving meanwhile takes it too.
    else await new Promise<void>((start, refuse) => this.enqueue({ kind, deadline: this.now() + limitMs, start, refuse, settled: false }));
    return this.execute(work);
  }

  /**
   * Whether a call of `kind` arriving now is admitted, and by when its hash must then be done (ms from now).
   * The caller's deadline (less the margin) binds even at a free slot: a hash done after it serves nobody.
   * The budget is ours to choose: a free slot always takes the call, however slow hashes have been.
   */
  private admission(kind: HashKind): { retryAfter?: number; limitMs: number } {
    const remaining = this.remainingMs();
    const room = remaining === undefined ? Infinity : remaining - this.marginMs;
    const ahead = this.running + this.waiting;
    const done = this.expectedDoneMs(ahead);
    const budget = this.budgetOf(kind);
    if (done > room || (ahead >= this.options.concurrency && done > budget)) return { retryAfter: this.retryAfter(), limitMs: 0 };
    return { limitMs: Math.min(budget, room) };
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

  private enqueue(entry: Waiting): void {
    this.line.push(entry);
    this.waiting += 1;
    this.watch(entry);
  }

  /**
   * Refuses a waiting call as soon as its hash could no longer be done in time even if it started now (its
   * latest start passed while the slots stayed busy), without hashing, and while its caller still listens:
   * the refusal then reaches the person as the designed 503, not as the gateway's timeout.
   */
  private watch(entry: Waiting): void {
    entry.cancelWatch = this.setTimer(
      () => {
        if (entry.settled) return;
        if (this.now() + this.mean >= entry.deadline) this.settle(entry, false);
        else this.watch(entry);
      },
      Math.max(0, entry.deadline - this.mean - this.now()),
    );
  }

  /** Takes a waiting call out of the line: starts it in a slot, or refuses it. */
  private settle(entry: Waiting, start: boolean): void {
    entry.settled = true;
    this.waiting -= 1;
    entry.cancelWatch?.();
    if (start) {
      this.running += 1;
      entry.start();
    } else entry.refuse(new HashQueueFull(entry.kind, this.retryAfter()));
  }

  /**
   * Hands the free slot to the head of the line. A call whose hash could not be done by its deadline (the
   * machine slowed after it was admitted) is refused here instead, without hashing: nothing stale holds the line.
   */
  private startNext(): void {
    while (this.running < this.options.concurrency && this.head < this.line.length) {
      const next = this.line[this.head];
      this.line[this.head] = undefined;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.line.length) {
        this.line.splice(0, this.head);
        this.head = 0;
      }
      if (!next || next.settled) continue;
      this.settle(next, this.now() + this.mean <= next.deadline);
    }
  }

  /** When a call with `ahead` others before it (running or waiting) would be done, from now (ms). */
  private expectedDoneMs(ahead: number): number {
    return Math.ceil((ahead + 1) / this.options.concurrency) * this.mean;
  }

  /**
   * The Retry-After for a refusal now. Each refusal takes the next slot of the pool's throughput (its pace
   * over the concurrency) after the line as it stands is done and after the last one told, so a refused
   * crowd comes back spread out at the rate the pool serves, not all in the same second: N refused are
   * told up to N × pace / concurrency. The pace is the median of the latest hash times, not the admission
   * mean, which a burst's own arrival (the event loop busy taking it in) inflates for a moment.
   * Once the slots reach MAX_RETRY_AFTER_SECONDS, more are refused than the pool can serve in that window:
   * the next ones are told the window again from its start, so the excess is spread over it (and refused
   * again, told again, when it comes back), never piled on the cap.
   */
  private retryAfter(): number {
    const now = this.now();
    const drained = now + this.expectedDoneMs(this.running + this.waiting);
    const slot = this.pace / this.options.concurrency;
    const cap = now + MAX_RETRY_AFTER_SECONDS * 1000;
    let next = Math.max(drained, this.retryHorizon) + slot;
    if (next > cap) next = Math.min(cap, drained + slot);
    this.retryHorizon = next;
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((next - now) / 1000)));
  }

  private measured(ms: number): void {
    this.mean = Math.max(0.1, this.mean + MEAN_WEIGHT * (ms - this.mean));
    this.recent.push(Math.max(0.1, ms));
    if (this.recent.length > PACE_WINDOW) this.recent.shift();
    const sorted = [...this.recent].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    this.pace = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
}
