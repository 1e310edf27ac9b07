import { publishRetryDelayMs } from './media-queue.worker.js';

describe('publishRetryDelayMs', () => {
  it('doubles from the minimum on each failed publication and stays at the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100].map((n) => publishRetryDelayMs(n, 2000, 30_000))).toEqual([
      2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
    expect(publishRetryDelayMs(0, 2000, 30_000)).toBe(2000);
  });
});
