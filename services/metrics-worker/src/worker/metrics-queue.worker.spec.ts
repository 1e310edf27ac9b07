import { publishRetryDelayMs } from './metrics-queue.worker.js';

describe('publishRetryDelayMs', () => {
  it('doubles from the minimum on each failed publication and stays at the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 100].map((n) => publishRetryDelayMs(n, 2000, 30_000))).toEqual([
      2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
