import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from './http.js';

/** The signed-in user as GET /api/user/me answers it (spec 01 §7, 02 §7). */
export interface CurrentUser {
  id: string;
  email: string | null;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  twitterUsername: string | null;
  profileImageUrl: string | null;
  bannerImageUrl: string | null;
  walletAddress: string | null;
  role: 'user' | 'clipper' | 'streamer' | 'admin';
  currentTier: number;
  nextStreamTime: string | null;
  isLive: 'true' | 'false';
  streamerMultiplier: string;
  createdAt: string;
}

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
