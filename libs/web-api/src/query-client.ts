import { QueryClient, type QueryObserverOptions } from '@tanstack/react-query';
import { getQueryFn } from './http.js';

/** Spec 01 §9: retry delay doubling from 1 s, capped at 30 s, where retries apply. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

export const CACHE_RETENTION_MS = 5 * 60 * 1000;

/**
 * The default policy of every query (spec 01 §7): no retries, no refetch on focus, no polling,
 * cached data never stale, kept 5 minutes after its last observer; mutations never retry.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        gcTime: CACHE_RETENTION_MS,
      },
      mutations: { retry: false },
    },
  });
}

/** The leaderboard's own policy: 3 retries with backoff from 1 s doubling to 30 s, fresh for 30 s. */
export const leaderboardQueryOptions = {
  retry: 3,
  retryDelay,
  staleTime: 30_000,
  refetchOnWindowFocus: false,
} satisfies Partial<QueryObserverOptions>;
