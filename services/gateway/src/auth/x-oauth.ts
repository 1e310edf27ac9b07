import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { X_SIGN_IN_MESSAGES, type XSignInErrorCode } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import { z } from 'zod';

// The rules of the X OAuth 2.0 round trip (ADR 0028) that need no I/O: PKCE, the authorize address, the
// callback address, where a finished or failed round trip sends the browser.

export const X_CALLBACK_PATH = '/auth/twitter/callback';
/** The cookie binding a started round trip to the browser that started it: sent only back to /auth/twitter/*. */
export const X_FLOW_COOKIE = 'clipit.xoauth';
export const X_FLOW_COOKIE_PATH = '/auth/twitter';

export const AFTER_X_SIGN_IN = { needsWallet: '/connect', ready: '/clippers/dashboard' } as const;

/** What the gateway keeps of a started round trip (in Redis, under the cookie's id), until the callback takes it. */
export interface XFlow {
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** A signed-in account that started the flow: X is linked to it (once). */
  linkUserId?: string;
}

/** 32 random bytes, base64url: a state, a verifier or a flow id. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))). The verifier is 43 characters of the unreserved set. */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}

export function newXFlow(redirectUri: string, linkUserId?: string): XFlow {
  return { state: randomToken(), codeVerifier: randomToken(), redirectUri, ...(linkUserId ? { linkUserId } : {}) };
}

export function authorizeUrl(base: string, p: { clientId: string; redirectUri: string; scopes: string; flow: XFlow }): string {
  const url = new URL(base);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('scope', p.scopes);
  url.searchParams.set('state', p.flow.state);
  url.searchParams.set('code_challenge', pkceChallenge(p.flow.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/**
 * Where X sends the browser back: the configured address, else the public origin's callback, else the
 * request's own origin's (one-machine setups). X compares it with the app's registered callback anyway.
 */
export function callbackUrl(configured: string, publicOrigin: string | undefined, request: { protocol: string; host: string }): string {
  if (configured) return configured;
  return `${publicOrigin ?? `${request.protocol}://${request.host}`}${X_CALLBACK_PATH}`;
}

/** Constant-time comparison of the state X echoed with the one kept for the cookie. */
export function sameState(expected: string, received: string | undefined): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function loginErrorLocation(code: XSignInErrorCode): string {
  return `/login?error=${encodeURIComponent(code)}`;
}

/** Redis key of a flow: the SHA-256 of the cookie's id, so a key read from Redis cannot be replayed as a cookie. */
export function flowKey(prefix: string, flowId: string): string {
  return `${prefix}xoauth:${createHash('sha256').update(flowId).digest('hex')}`;
}

/** A plausible flow cookie value (what randomToken makes); anything else is not looked up. */
export const FLOW_ID = /^[\w-]{43}$/;

/** X's token endpoint answer (only what we use). */
export const xTokenAnswer = z.object({ access_token: z.string().min(1), token_type: z.string().optional() });

/** X's GET /2/users/me?user.fields=profile_image_url answer. */
export const xUserAnswer = z.object({
  data: z.object({
    id: z.string().regex(/^\d{1,19}$/),
    name: z.string().optional(),
    username: z.string().min(1),
    profile_image_url: z.string().optional(),
  }),
});
export type XUser = z.infer<typeof xUserAnswer>['data'];

/** A failed round trip: the browser goes to /login?error=<code>. */
export class XSignInFailure extends Error {
  constructor(
    readonly code: XSignInErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'XSignInFailure';
  }
}

/** identity's refusal of SignInWithX as the code the Login page explains. */
export function codeForIdentityError(err: unknown): XSignInErrorCode {
  if (!(err instanceof GrpcCallError)) return 'failed';
  if (err.code === GrpcStatus.ALREADY_EXISTS) return 'x-linked-elsewhere';
  if (err.code === GrpcStatus.FAILED_PRECONDITION)
    return err.message === X_SIGN_IN_MESSAGES.accountLinkedToOtherX ? 'x-account-linked' : 'x-handle-linked';
  if (err.code === GrpcStatus.INVALID_ARGUMENT) return 'x-profile';
  if (err.code === GrpcStatus.UNAVAILABLE || err.code === GrpcStatus.DEADLINE_EXCEEDED) return 'x-unavailable-now';
  return 'failed';
}
