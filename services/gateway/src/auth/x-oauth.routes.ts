import { X_SIGN_IN_ERRORS } from '@clipit/field-rules';
import { z } from 'zod';
import type { EndpointDef } from '../http/endpoint.js';

/** GET /api/auth/providers: which sign-in buttons work on this platform (the web apps ask once and keep it). */
export const authProvidersResponse = z
  .object({
    x: z.object({
      available: z.boolean().meta({
        description:
          'An X app is configured (X_OAUTH_CLIENT_ID); false: the sign-in buttons lead to the password sign-in at /login, and /login shows no X button',
      }),
    }),
  })
  .meta({ id: 'AuthProviders' });

const errorCodes = Object.keys(X_SIGN_IN_ERRORS).join(', ');
const startAnswer =
  `Redirect to X's authorize page (response_type=code, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method=S256), ` +
  `setting the HttpOnly cookie clipit.xoauth (Path=/auth/twitter, X_OAUTH_STATE_TTL_SECONDS); or, when it cannot start, ` +
  `to /login?error=<code> (x-unavailable: no X app configured; x-rate-limited; x-unavailable-now: Redis away). Never answers an error page.`;

export const xOAuthRoutes = {
  login: {
    method: 'GET',
    path: '/api/login',
    tag: 'auth',
    summary: 'Sign in with X: start the OAuth 2.0 authorization code flow with PKCE (a full-page navigation)',
    status: 302,
    successDescription: startAnswer,
    successContentType: 'text/plain',
  },
  twitter: {
    method: 'GET',
    path: '/auth/twitter',
    tag: 'auth',
    summary: 'Sign in with X (same as GET /api/login): the Connect page’s Login with Twitter',
    status: 302,
    successDescription: startAnswer,
    successContentType: 'text/plain',
  },
  callback: {
    method: 'GET',
    path: '/auth/twitter/callback',
    tag: 'auth',
    summary: 'Where X sends the browser back: checks the state against the cookie (once), trades the code, reads the X user, signs in',
    status: 302,
    query: {
      code: 'The authorization code X issued',
      state: 'The state the start sent; must match the clipit.xoauth cookie',
      error: 'X’s error (access_denied when the person said no)',
      error_description: 'X’s description of the error (logged, not shown)',
    },
    successDescription:
      'Signed in (clipit.sid set, clipit.xoauth cleared): redirect to /connect when the account has no wallet yet, else /clippers/dashboard. ' +
      `Any failure: redirect to /login?error=<code>, one of ${errorCodes}; the Login page shows what each means.`,
    successContentType: 'text/plain',
  },
  providers: {
    method: 'GET',
    path: '/api/auth/providers',
    tag: 'auth',
    summary: 'Which sign-in providers are available here (sign in with X needs a configured X app)',
    response: authProvidersResponse,
  },
} satisfies Record<string, EndpointDef>;
