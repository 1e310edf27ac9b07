import { useQuery } from '@tanstack/react-query';
import type { AuthProviders } from './api-types.js';

export const authProvidersKey = ['/api/auth/providers'] as const;

/** The full-page navigations that start sign in with X (spec 01 §2, 02 §2.1; ADR 0028). */
export const X_SIGN_IN_PATHS = { connect: '/auth/twitter', landing: '/api/login', login: '/api/login' } as const;

/** Where a sign-in button leads on a platform without an X app: the password sign-in (ADR 0028). */
export const PASSWORD_SIGN_IN_PAGE = '/login';

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

/**
 * Where a 'Sign in with Twitter' button leads (ADR 0028): X's round trip from `start` (a full-page
 * navigation to the gateway) when this platform has an X app, else the password sign-in page (a route of
 * the site). The button keeps the spec's words either way: it always signs the person in.
 */
export type SignInTarget = { kind: 'x'; path: (typeof X_SIGN_IN_PATHS)[keyof typeof X_SIGN_IN_PATHS] } | { kind: 'page'; path: string };

export function useSignInTarget(start: keyof typeof X_SIGN_IN_PATHS): SignInTarget {
  const { available } = useXSignInAvailability();
  return available ? { kind: 'x', path: X_SIGN_IN_PATHS[start] } : { kind: 'page', path: PASSWORD_SIGN_IN_PAGE };
}
