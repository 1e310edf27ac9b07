import { backoffMs, MAX_RESET_WAIT_MS, pauseAfterAnswer } from './rate-limit.js';

const policy = { marginMs: 1000, backoffMinMs: 5000, backoffMaxMs: 60_000 };
const now = 1_800_000_000_000;
const inSeconds = (s: number) => now / 1000 + s;

describe("pauseAfterAnswer: when every worker waits for X's rate limit", () => {
  it('does not pause while the window has requests left', () => {
    expect(pauseAfterAnswer(200, { limit: 450, remaining: 449, resetAtSeconds: inSeconds(900) }, now, 0, policy)).toBeUndefined();
    expect(pauseAfterAnswer(200, {}, now, 0, policy)).toBeUndefined();
    expect(pauseAfterAnswer(503, { remaining: 10, resetAtSeconds: inSeconds(60) }, now, 0, policy)).toBeUndefined();
  });

  it('pauses until the reset (plus the margin) when the answer used the last request of the window', () => {
    expect(pauseAfterAnswer(200, { limit: 450, remaining: 0, resetAtSeconds: inSeconds(120) }, now, 0, policy)).toEqual({
      reason: 'window-used-up',
      waitMs: 121_000,
    });
    // A reset already past: nothing to wait for.
    expect(pauseAfterAnswer(200, { remaining: 0, resetAtSeconds: inSeconds(-1) }, now, 0, policy)).toBeUndefined();
  });

  it('pauses until the reset on a 429 that names it', () => {
    expect(pauseAfterAnswer(429, { limit: 450, remaining: 0, resetAtSeconds: inSeconds(30) }, now, 1, policy)).toEqual({
      reason: 'too-many-requests',
      waitMs: 31_000,
    });
  });

  it('never waits longer than a window and a minute for a reset far off', () => {
    expect(pauseAfterAnswer(429, { resetAtSeconds: inSeconds(86_400) }, now, 1, policy)).toEqual({
      reason: 'too-many-requests',
      waitMs: MAX_RESET_WAIT_MS,
    });
  });

  it('backs off exponentially on 429s without a usable reset, capped', () => {
    const waits = [1, 2, 3, 4, 5, 6].map((n) => pauseAfterAnswer(429, {}, now, n, policy));
    expect(waits.map((w) => w?.reason)).toEqual(Array(6).fill('too-many-requests-backoff'));
    expect(waits.map((w) => w?.waitMs)).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(pauseAfterAnswer(429, { resetAtSeconds: inSeconds(-5) }, now, 1, policy)).toEqual({
      reason: 'too-many-requests-backoff',
      waitMs: 5000,
    });
  });

  it('backoffMs doubles from the minimum', () => {
    expect([0, 1, 2, 3, 100].map((n) => backoffMs(n, 100, 1000))).toEqual([100, 100, 200, 400, 1000]);
  });
});
