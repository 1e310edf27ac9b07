import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from './api-types.js';
import { getQueryFn } from './http.js';

export const currentUserKey = ['/api/user/me'] as const;

/**
 * GET /api/user/me, never retried: success means signed in. A 401 answers null (signed out),
 * so screens read `data` without treating "signed out" as an error.
 */
export function useCurrentUser() {
  const query = useQuery<CurrentUser | null>({
    queryKey: currentUserKey,
    queryFn: getQueryFn<CurrentUser>({ on401: 'returnNull' }),
    retry: false,
  });
  return { ...query, user: query.data ?? null, isSignedIn: Boolean(query.data) };
}
