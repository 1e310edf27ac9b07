import type { Redis } from 'ioredis';
import { RateLimiter } from './rate-limiter.js';

// A stand-in for the connection that only has what the limiter reads: its status, and the script call,
// which answers only when the connection is ready (as ioredis' offline queue does). It counts every call
// sent, which is what would reach Redis once the queue runs.
function connection() {
  const state = { status: 'connect', sent: 0 };
  const redis = {
    get status() {
      return state.status;
    },
    defineCommand: () => undefined,
    rateLimitHit: () => {
      state.sent += 1;
      if (state.status !== 'ready') return new Promise<number>(() => undefined);
      return Promise.resolve(0);
    },
  };
  return { state, redis: redis as unknown as Redis };
}

describe('RateLimiter while its Redis connection comes back', () => {
  it('sends nothing to a connection that is not ready once it counts locally, and returns to Redis when it is', async () => {
    const { state, redis } = connection();
    const limiter = new RateLimiter(redis, { keyPrefix: 't:', windowSeconds: 60, maxPerIp: 2, maxPerHandle: 10, redisTimeoutMs: 20 });

    // Not ready yet: the first attempt waits for it within the timeout, then is counted here.
    expect(await limiter.hit('login', '198.51.100.7')).toEqual({ allowed: true });
    expect(limiter.countingLocally).toBe(true);
    expect(state.sent).toBe(1);
    // The next ones are counted here at once; none joins the connection's queue to count again later.
    for (let i = 0; i < 3; i++) await limiter.hit('login', '198.51.100.7');
    expect(state.sent).toBe(1);

    state.status = 'ready';
    expect(await limiter.hit('login', '198.51.100.7')).toEqual({ allowed: true });
    expect(limiter.countingLocally).toBe(false);
    expect(state.sent).toBe(2);
  });
});
