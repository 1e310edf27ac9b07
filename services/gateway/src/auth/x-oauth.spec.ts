import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { X_SIGN_IN_ERRORS, xSignInErrorText } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import {
  authorizeUrl,
  callbackUrl,
  codeForIdentityError,
  flowKey,
  loginErrorLocation,
  newXFlow,
  pkceChallenge,
  sameState,
} from './x-oauth.js';

describe('sign in with X: the round trip’s rules', () => {
  it('computes the S256 challenge: unpadded base64url of the verifier’s SHA-256 (the stand-in X checks it end to end)', () => {
    const verifier = 'a'.repeat(43);
    expect(pkceChallenge(verifier)).toBe(
      createHash('sha256').update(verifier).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    );
    expect(pkceChallenge(verifier)).toMatch(/^[\w-]{43}$/);
    expect(pkceChallenge(`${verifier}b`)).not.toBe(pkceChallenge(verifier));
  });

  it('makes a fresh state and a 43-character verifier for every flow, and remembers who asked to link', () => {
    const a = newXFlow('https://clipit.example/auth/twitter/callback');
    const b = newXFlow('https://clipit.example/auth/twitter/callback', 'user-1');
    expect(a.codeVerifier).toMatch(/^[\w-]{43}$/);
    expect(a.state).not.toBe(b.state);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect([a.linkUserId, b.linkUserId]).toEqual([undefined, 'user-1']);
  });

  it('builds the authorize address X expects', () => {
    const flow = newXFlow('https://clipit.example/auth/twitter/callback');
    const url = new URL(
      authorizeUrl('https://x.com/i/oauth2/authorize', {
        clientId: 'cid',
        redirectUri: flow.redirectUri,
        scopes: 'tweet.read users.read',
        flow,
      }),
    );
    expect(url.origin + url.pathname).toBe('https://x.com/i/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'cid',
      redirect_uri: 'https://clipit.example/auth/twitter/callback',
      scope: 'tweet.read users.read',
      state: flow.state,
      code_challenge: pkceChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
    });
  });

  it('takes the callback address from configuration, else the public origin, else the request', () => {
    const request = { protocol: 'http', host: 'localhost:8080' };
    expect(callbackUrl('https://cb.example/x', 'https://clipit.example', request)).toBe('https://cb.example/x');
    expect(callbackUrl('', 'https://clipit.example', request)).toBe('https://clipit.example/auth/twitter/callback');
    expect(callbackUrl('', undefined, request)).toBe('http://localhost:8080/auth/twitter/callback');
  });

  it('compares states exactly', () => {
    expect(sameState('abc', 'abc')).toBe(true);
    expect(sameState('abc', 'abd')).toBe(false);
    expect(sameState('abc', 'abcd')).toBe(false);
    expect(sameState('abc', undefined)).toBe(false);
  });

  it('keys a flow by the hash of its cookie, under the Redis prefix', () => {
    expect(flowKey('p:', 'id')).toMatch(/^p:xoauth:[0-9a-f]{64}$/);
    expect(flowKey('p:', 'id')).not.toContain(':id');
  });

  it('maps identity’s refusals to the codes the Login page explains', () => {
    const e = (code: status, message = 'm') => new GrpcCallError(code, message, 'signInWithX', true);
    expect(codeForIdentityError(e(status.ALREADY_EXISTS))).toBe('x-linked-elsewhere');
    expect(codeForIdentityError(e(status.FAILED_PRECONDITION, 'Your account is already linked to a different X account'))).toBe(
      'x-account-linked',
    );
    expect(
      codeForIdentityError(e(status.FAILED_PRECONDITION, 'The CLIP IT account with this X handle is linked to a different X account')),
    ).toBe('x-handle-linked');
    expect(codeForIdentityError(e(status.INVALID_ARGUMENT))).toBe('x-profile');
    expect(codeForIdentityError(e(status.UNAVAILABLE))).toBe('x-unavailable-now');
    expect(codeForIdentityError(e(status.INTERNAL))).toBe('failed');
    expect(codeForIdentityError(new Error('boom'))).toBe('failed');
  });

  it('sends every failure to a /login address whose code the page knows', () => {
    for (const code of Object.keys(X_SIGN_IN_ERRORS) as (keyof typeof X_SIGN_IN_ERRORS)[]) {
      const location = new URL(loginErrorLocation(code), 'https://clipit.example');
      expect(location.pathname).toBe('/login');
      expect(xSignInErrorText(location.searchParams.get('error')!)).toBe(X_SIGN_IN_ERRORS[code]);
    }
    expect(xSignInErrorText('made-up')).toBe(X_SIGN_IN_ERRORS.failed);
  });
});
