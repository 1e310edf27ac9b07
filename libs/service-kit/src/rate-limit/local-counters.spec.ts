import { LocalCounters } from './rate-limiter.js';

describe('LocalCounters (the limiter while Redis is down)', () => {
  it('allows up to each key’s limit within the window, then answers the time left', () => {
    let now = 1_000_000;
    const counters = new LocalCounters(60_000, () => now);
    const hits = [1, 2, 3, 4].map(() => counters.hit(['ip', 'handle'], [10, 3]));
    expect(hits).toEqual([0, 0, 0, 60_000]);
    now += 15_000;
    expect(counters.hit(['ip', 'handle'], [10, 3])).toBe(45_000);
    // Another handle from the same address is limited by the address only.
    expect(counters.hit(['ip', 'other'], [10, 3])).toBe(0);
  });

  it('starts a new window once the old one ended, and forgets ended windows', () => {
    let now = 0;
    const counters = new LocalCounters(1000, () => now);
    expect([1, 2].map(() => counters.hit(['a'], [1]))).toEqual([0, 1000]);
    now = 1000;
    expect(counters.hit(['b'], [1])).toBe(0);
    expect(counters.size).toBe(1);
    expect(counters.hit(['a'], [1])).toBe(0);
  });
});
