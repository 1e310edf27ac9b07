import { CACHE_RETENTION_MS, createQueryClient, leaderboardQueryOptions, retryDelay } from './query-client.js';

describe('query policies', () => {
  it('defaults: no retries, no refetch on focus, no polling, never stale, 5-minute cache', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Infinity,
      gcTime: 300_000,
    });
    expect(typeof queries?.queryFn).toBe('function');
    expect(mutations).toMatchObject({ retry: false });
    expect(CACHE_RETENTION_MS).toBe(300_000);
  });

  it('retry delay doubles from 1 s and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('the leaderboard retries 3 times with that backoff and stays fresh for 30 s', () => {
    expect(leaderboardQueryOptions).toEqual({ retry: 3, retryDelay, staleTime: 30_000, refetchOnWindowFocus: false });
  });
});
