import { useQuery } from '@tanstack/react-query';
import type { AuthProviders } from './api-types.js';

export const authProvidersKey = ['/api/auth/providers'] as const;

/** The full-page navigations that start sign in with X (spec 01 §2, 02 §2.1; ADR 0028). */
export const X_SIGN_IN_PATHS = { connect: '/auth/twitter', landing: '/api/login', login: '/api/login' } as const;

/**
 * GET /api/auth/providers, asked once and kept for the page's life (the default policy: never stale, no
 * retry): whether sign in with X works here. Until it is known, and if it cannot be asked, the buttons stay
 * usable: the gateway sends an unconfigured start to /login?error=x-unavailable anyway.
 */
export function useXSignInAvailability(): { available: boolean; known: boolean } {
  const query = useQuery<AuthProviders>({ queryKey: authProvidersKey });
  // Read defensively: an answer of another shape (an old gateway) must not take the page down.
  const available = (query.data as Partial<AuthProviders> | undefined)?.x?.available;
  return { available: available !== false, known: typeof available === 'boolean' };
}
