import { describe, expect, it } from '@jest/globals';
import { publishRetryDelayMs } from './queue-worker.js';

describe('publishRetryDelayMs', () => {
  it('doubles from the minimum on each failed publication and stays at the maximum, without overflowing', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 1000].map((n) => publishRetryDelayMs(n, 300, 3000))).toEqual([
      300, 300, 600, 1200, 2400, 3000, 3000, 3000,
    ]);
  });
});
