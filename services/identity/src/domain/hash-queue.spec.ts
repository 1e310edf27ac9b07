import { describe, expect, it } from '@jest/globals';
import { HashQueue, HashQueueFull, MAX_RETRY_AFTER_SECONDS, type HashKind } from './hash-queue.js';

// The line in front of password hashing (ADR 0044), on a clock the test moves and hashes it finishes by
// hand: how many run, who is admitted, who is refused at once and told what, and that nothing stale runs.

function harness({ concurrency = 2, budgetMs = 1000, meanMs = 100 } = {}) {
  let now = 0;
  const queue = new HashQueue({ concurrency, budgetMs, initialMeanMs: meanMs, now: () => now });
  const started: number[] = [];
  const finishers = new Map<number, () => void>();
  let seq = 0;
  /** Submits one hash of `kind`; it runs until `finish(id)` and answers its id. */
  const submit = (kind: HashKind) => {
    const id = (seq += 1);
    const result = queue.run(kind, () => {
      started.push(id);
      return new Promise<number>((resolve) => finishers.set(id, () => resolve(id)));
    });
    return {
      id,
      result: result.then(
        (v) => ({ ok: v }),
        (err: unknown) => ({ err }),
      ),
    };
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
    finish,
    drain,
    advance: (ms: number) => void (now += ms),
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
    h.advance(100);
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
    // …and never past the cap, however many.
    for (let i = 0; i < 2000; i += 1) await h.submit('sign-in').result;
    expect(((await h.submit('sign-in').result) as { err: HashQueueFull }).err.retryAfterSeconds).toBe(MAX_RETRY_AFTER_SECONDS);
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
});
