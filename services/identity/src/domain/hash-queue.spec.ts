import { describe, expect, it } from '@jest/globals';
import { HashQueue, HashQueueFull, MAX_RETRY_AFTER_SECONDS, type HashKind } from './hash-queue.js';

// The line in front of password hashing (ADR 0044), on a clock the test moves and hashes it finishes by
// hand: how many run, who is admitted, who is refused at once and told what, and that nothing stale runs.

function harness({ concurrency = 2, budgetMs = 1000, meanMs = 100, deadlineMarginMs = 0 } = {}) {
  let now = 0;
  /** The caller's deadline (on the same clock) of the call being submitted, as the request context would hold it. */
  let callerDeadline: number | undefined;
  const timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  const queue = new HashQueue({
    concurrency,
    budgetMs,
    initialMeanMs: meanMs,
    deadlineMarginMs,
    remainingMs: () => (callerDeadline === undefined ? undefined : callerDeadline - now),
    now: () => now,
    setTimer: (fn, ms) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
  });
  const started: number[] = [];
  const finishers = new Map<number, () => void>();
  let seq = 0;
  /** Submits one hash of `kind` (from a caller who waits until `deadline`, if given); it runs until `finish(id)` and answers its id. */
  const submit = (kind: HashKind, deadline?: number) => {
    const id = (seq += 1);
    callerDeadline = deadline;
    const result = queue.run(kind, () => {
      started.push(id);
      return new Promise<number>((resolve) => finishers.set(id, () => resolve(id)));
    });
    callerDeadline = undefined;
    return {
      id,
      result: result.then(
        (v) => ({ ok: v }),
        (err: unknown) => ({ err }),
      ),
    };
  };
  /** What `refusal` answers for a call from a caller who waits until `deadline`. */
  const refusalFor = (kind: HashKind, deadline: number) => {
    callerDeadline = deadline;
    try {
      return queue.refusal(kind);
    } finally {
      callerDeadline = undefined;
    }
  };
  /** Moves the clock by `ms`, firing the timers that fall due on the way, in order. */
  const advance = async (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = Math.max(now, due.at);
      due.cancelled = true;
      due.fn();
      await flush();
    }
    now = until;
  };
  /** Finishes hash `id` after `ms` of the clock, and lets the line move on. */
  const finish = async (id: number, ms = meanMs) => {
    now += ms;
    const done = finishers.get(id)!;
    finishers.delete(id);
    done();
    await flush();
  };
  /** Finishes every hash as it starts, in no time, until the line is empty. */
  const drain = async () => {
    while (finishers.size > 0) for (const id of [...finishers.keys()]) await finish(id, 0);
  };
  return {
    queue,
    started,
    submit,
    refusalFor,
    finish,
    drain,
    advance,
    /** The clock now. */
    clock: () => now,
    /** Timers armed and not yet fired or cancelled. */
    pendingTimers: () => timers.filter((t) => !t.cancelled).length,
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe('HashQueue', () => {
  it('runs at most `concurrency` hashes at once; the rest start in arrival order as slots free', async () => {
    const h = harness({ concurrency: 2, budgetMs: 10_000 });
    const calls = [1, 2, 3, 4, 5].map(() => h.submit('sign-in'));
    await flush();
    expect(h.started).toEqual([1, 2]);
    expect(h.queue.state).toMatchObject({ running: 2, waiting: 3 });
    await h.finish(2);
    expect(h.started).toEqual([1, 2, 3]);
    await h.finish(1);
    await h.finish(3);
    await h.finish(4);
    await h.finish(5);
    expect(h.started).toEqual([1, 2, 3, 4, 5]);
    expect(await Promise.all(calls.map((c) => c.result))).toEqual([1, 2, 3, 4, 5].map((ok) => ({ ok })));
    expect(h.queue.state).toMatchObject({ running: 0, waiting: 0 });
  });

  it('never runs more than `concurrency` even when a call arrives while a freed slot is being handed on', async () => {
    const h = harness({ concurrency: 1, budgetMs: 10_000 });
    h.submit('sign-in');
    h.submit('sign-in');
    await flush();
    // Slot freed and handed to #2; #3 arrives before #2's continuation has run.
    await h.advance(100);
    const late = h.submit('sign-in');
    expect(h.queue.state.running).toBe(1);
    await flush();
    expect(h.started).toEqual([1]);
    await h.finish(1, 0);
    expect(h.started).toEqual([1, 2]);
    expect(h.queue.state).toMatchObject({ running: 1, waiting: 1 });
    await h.finish(2);
    await h.finish(late.id);
    expect(h.started).toEqual([1, 2, 3]);
  });

  it('refuses at once, without running it, a sign-in whose hash would be done after its budget, with a Retry-After', async () => {
    // 2 at once, 100 ms each, 1000 ms budget: the 20th call (19 ahead) would be done at ceil(20/2)·100 = 1000 ms; the 21st after.
    const h = harness({ concurrency: 2, budgetMs: 1000, meanMs: 100 });
    for (let i = 0; i < 20; i += 1) h.submit('sign-in');
    await flush();
    const refused = await h.submit('sign-in').result;
    expect(refused).toEqual({ err: expect.any(HashQueueFull) });
    const err = (refused as { err: HashQueueFull }).err;
    expect(err.kind).toBe('sign-in');
    // The line drains in ceil(21/2)·100 ms = 1.1 s, plus this caller's slot: told 2 s.
    expect(err.retryAfterSeconds).toBe(2);
    expect(h.started).toHaveLength(2);
    expect(h.queue.state).toMatchObject({ running: 2, waiting: 18 });
  });

  it('admits a sign-up or reset only while the line is within half the budget: the rest is for people with an account', async () => {
    const h = harness({ concurrency: 2, budgetMs: 1000, meanMs: 100 });
    // 10 ahead: a new call would be done at ceil(11/2)·100 = 600 ms, over 500 for a sign-up, within 1000 for a sign-in.
    for (let i = 0; i < 10; i += 1) h.submit('sign-in');
    await flush();
    expect(h.queue.refusal('new-secret')).toBeGreaterThanOrEqual(1);
    expect(h.queue.refusal('sign-in')).toBeUndefined();
    expect(await h.submit('new-secret').result).toEqual({ err: expect.objectContaining({ kind: 'new-secret' }) });
    const login = h.submit('sign-in');
    // Two hashes done: 9 ahead, done at ceil(10/2)·100 = 500 ms: a sign-up is admitted again, behind the sign-in before it.
    await h.finish(1, 0);
    await h.finish(2, 0);
    expect(h.queue.state).toMatchObject({ running: 2, waiting: 7 });
    const signup = h.submit('new-secret');
    await h.drain();
    expect(await login.result).toEqual({ ok: login.id });
    expect(await signup.result).toEqual({ ok: signup.id });
    expect(h.started.indexOf(signup.id)).toBeGreaterThan(h.started.indexOf(login.id));
  });

  it('always takes a call when a slot is free, however slow a hash has been', async () => {
    const h = harness({ concurrency: 2, budgetMs: 50, meanMs: 5000 });
    const first = h.submit('new-secret');
    await flush();
    expect(h.started).toEqual([first.id]);
    expect(h.queue.refusal('new-secret')).toBeUndefined();
  });

  it('tells each refused caller a later slot, at the pool’s rate, so a refused crowd does not come back at once', async () => {
    const h = harness({ concurrency: 2, budgetMs: 1000, meanMs: 100 });
    for (let i = 0; i < 20; i += 1) h.submit('sign-in');
    await flush();
    const told: number[] = [];
    for (let i = 0; i < 100; i += 1) told.push(((await h.submit('sign-in').result) as { err: HashQueueFull }).err.retryAfterSeconds);
    // 100 refusals at 2 hashes per 100 ms: 5 s of slots after the line's 1.1 s; each second about 20 of them.
    expect(told[0]).toBe(2);
    expect(told.at(-1)).toBe(7);
    expect([...told].sort((a, b) => a - b)).toEqual(told);
    for (const s of [3, 4, 5, 6]) expect(told.filter((t) => t === s).length).toBe(20);
    // …and never past the cap, however many: once the slots reach it, the next ones are told the window again
    // from its start, so the excess is spread over the 30 s, not piled on its last second.
    for (let i = 0; i < 2000; i += 1) told.push(((await h.submit('sign-in').result) as { err: HashQueueFull }).err.retryAfterSeconds);
    expect(Math.max(...told)).toBe(MAX_RETRY_AFTER_SECONDS);
    const perSecond = new Map<number, number>();
    for (const t of told) perSecond.set(t, (perSecond.get(t) ?? 0) + 1);
    // 2100 refusals over slots from 1.15 s to 30 s, 20 a second: four passes over the window at most.
    for (let s = 2; s <= MAX_RETRY_AFTER_SECONDS; s += 1) expect(perSecond.get(s)).toBeGreaterThan(0);
    for (const n of perSecond.values()) expect(n).toBeLessThanOrEqual(4 * 20);
  });

  it('refuses, without hashing, a waiting call whose budget ran out before its turn (nothing stale holds the line)', async () => {
    const h = harness({ concurrency: 1, budgetMs: 1000, meanMs: 100 });
    const first = h.submit('sign-in');
    const waiting = [1, 2, 3].map(() => h.submit('sign-in'));
    await flush();
    // The first hash takes 950 ms instead of 100: the next ones could no longer be done within their 1000 ms.
    await h.finish(first.id, 950);
    for (const w of waiting) expect(await w.result).toEqual({ err: expect.any(HashQueueFull) });
    expect(h.started).toEqual([first.id]);
    expect(h.queue.state).toMatchObject({ running: 0, waiting: 0 });
    // A call arriving now is served at once.
    const next = h.submit('sign-in');
    await flush();
    expect(h.started).toEqual([first.id, next.id]);
  });

  it('learns a hash’s time from what it measures, and passes a failing hash’s error on, freeing its slot', async () => {
    const h = harness({ concurrency: 1, budgetMs: 10_000, meanMs: 100 });
    const one = h.submit('sign-in');
    await flush();
    await h.finish(one.id, 600);
    expect(h.queue.state.meanMs).toBeCloseTo(200); // 100 + 0.2 · (600 - 100)
    h.queue.calibrate(42);
    expect(h.queue.state.meanMs).toBe(42);
    await expect(h.queue.run('sign-in', () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    expect(h.queue.state.running).toBe(0);
  });

  describe('the caller’s deadline', () => {
    it('admits against the sooner of the budget and the caller’s remaining time less the margin', async () => {
      // 2 at once, 100 ms each, 1000 ms budget, 200 ms margin; 10 ahead: a new call would be done at 600 ms.
      const h = harness({ concurrency: 2, budgetMs: 1000, meanMs: 100, deadlineMarginMs: 200 });
      for (let i = 0; i < 10; i += 1) h.submit('sign-in');
      await flush();
      // Within the budget, but its caller waits only 700 ms more: 500 ms of room, and 600 ms of work ahead.
      expect(h.refusalFor('sign-in', h.clock() + 700)).toBeGreaterThanOrEqual(1);
      const late = await h.submit('sign-in', h.clock() + 700).result;
      expect(late).toEqual({ err: expect.objectContaining({ name: 'HashQueueFull', kind: 'sign-in' }) });
      // With 800 ms left (600 of room) it is admitted; with no deadline at all the budget alone decides.
      expect(h.refusalFor('sign-in', h.clock() + 800)).toBeUndefined();
      expect(h.queue.refusal('sign-in')).toBeUndefined();
      // A sign-up gets the sooner of half the budget (500) and its room: refused at 600 ms of work either way.
      expect(h.refusalFor('new-secret', h.clock() + 5000)).toBeGreaterThanOrEqual(1);
      expect(h.queue.state).toMatchObject({ running: 2, waiting: 8 });
    });

    it('binds even at a free slot: a hash that would be done after the caller stops waiting is not started', async () => {
      const h = harness({ concurrency: 2, budgetMs: 1000, meanMs: 100, deadlineMarginMs: 200 });
      // Nothing running. 250 ms left: 50 ms of room for 100 ms of hashing.
      const hopeless = await h.submit('sign-in', h.clock() + 250).result;
      expect(hopeless).toEqual({ err: expect.any(HashQueueFull) });
      expect((hopeless as { err: HashQueueFull }).err.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(h.started).toEqual([]);
      // A caller whose deadline already passed (its call waited in the event loop) is refused the same way.
      expect(h.refusalFor('sign-in', h.clock() - 10)).toBeGreaterThanOrEqual(1);
      // 300 ms left: exactly the hash's time of room; it runs.
      const inTime = h.submit('sign-in', h.clock() + 300);
      await flush();
      expect(h.started).toEqual([inTime.id]);
    });

    it('refuses a waiting call as soon as its hash could no longer be done before its caller’s deadline, while its caller still listens', async () => {
      const h = harness({ concurrency: 1, budgetMs: 10_000, meanMs: 100, deadlineMarginMs: 100 });
      const first = h.submit('sign-in');
      // Admitted: done at 200 ms, within its room of 900 (1000 left less the 100 ms margin).
      const waiting = h.submit('sign-in', h.clock() + 1000);
      // Behind it, a caller with no deadline: only the 10 s budget binds.
      const patient = h.submit('sign-in');
      await flush();
      expect(h.queue.state).toMatchObject({ running: 1, waiting: 2 });
      // The first hash stalls. At 799 ms the waiting call could still be done by 900 if it started now…
      await h.advance(799);
      expect(h.queue.state.waiting).toBe(2);
      // …at 800 it no longer can: refused then, without hashing, 200 ms before its caller's deadline.
      await h.advance(1);
      expect(await waiting.result).toEqual({ err: expect.any(HashQueueFull) });
      expect(h.queue.state).toMatchObject({ running: 1, waiting: 1 });
      // When the slot frees, the one behind it runs; the refused one never does.
      await h.finish(first.id, 0);
      expect(h.started).toEqual([first.id, patient.id]);
      await h.finish(patient.id);
      expect(await patient.result).toEqual({ ok: patient.id });
      expect(h.pendingTimers()).toBe(0);
    });

    it('keeps a waiting call whose hash can still be done, and drops its watch when it starts', async () => {
      const h = harness({ concurrency: 1, budgetMs: 10_000, meanMs: 100, deadlineMarginMs: 0 });
      const first = h.submit('sign-in');
      const waiting = h.submit('sign-in', h.clock() + 1000);
      await flush();
      expect(h.pendingTimers()).toBe(1);
      // The first hash takes 300 ms (the estimate becomes 140): started at 300, done by 440, before the deadline at 1000.
      await h.advance(300);
      await h.finish(first.id, 0);
      expect(h.started).toEqual([first.id, waiting.id]);
      expect(h.pendingTimers()).toBe(0);
      await h.finish(waiting.id);
      expect(await waiting.result).toEqual({ ok: waiting.id });
    });
    it('judges a waiting call by the latest estimate when its watch falls due, not the one it was admitted on', async () => {
      const h = harness({ concurrency: 2, budgetMs: 10_000, meanMs: 100 });
      h.submit('sign-in');
      const fast = h.submit('sign-in');
      const ahead = h.submit('sign-in');
      const watched = h.submit('sign-in', h.clock() + 1000);
      await flush();
      // A 10 ms hash: the estimate falls to 82 ms, and the call ahead takes its slot.
      await h.finish(fast.id, 10);
      expect(h.started).toContain(ahead.id);
      // Armed for 900 ms (1000 less 100), its watch finds 82 ms of hashing still fits at 900, and looks again…
      await h.advance(890);
      expect(h.queue.state.waiting).toBe(1);
      // …at 918, when it no longer does.
      await h.advance(18);
      expect(await watched.result).toEqual({ err: expect.any(HashQueueFull) });
      expect(h.started).not.toContain(watched.id);
    });
  });

  it('spreads the Retry-After by the pool’s pace (the median hash time), which a single stalled hash does not throw', async () => {
    const h = harness({ concurrency: 2, budgetMs: 1000, meanMs: 100 });
    for (let i = 0; i < 10; i += 1) {
      const one = h.submit('sign-in');
      await flush();
      await h.finish(one.id, i === 9 ? 2100 : 100);
    }
    // One 2.1 s stall: the admission estimate jumps to 100 + 0.2 · 2000 = 500 ms, the pace stays 100 ms.
    expect(h.queue.state.meanMs).toBeCloseTo(500);
    expect(h.queue.state.paceMs).toBe(100);
    // With 500 ms a hash, 4 fit the 1 s budget (2 running, 2 waiting: done at 1000 ms); the line drains in 1.5 s.
    for (let i = 0; i < 4; i += 1) h.submit('sign-in');
    await flush();
    const told: number[] = [];
    for (let i = 0; i < 100; i += 1) told.push(((await h.submit('sign-in').result) as { err: HashQueueFull }).err.retryAfterSeconds);
    // 100 refused at 2 per 100 ms: from 1.55 s to 6.5 s, 20 a second, not the 25 s the stalled mean would have spread them over.
    expect(told[0]).toBe(2);
    expect(told.at(-1)).toBe(7);
    for (const s of [3, 4, 5, 6]) expect(told.filter((t) => t === s).length).toBe(20);
  });
});
