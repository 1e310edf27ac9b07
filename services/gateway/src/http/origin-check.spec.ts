import { describe, expect, it } from '@jest/globals';
import { hasCookie, isCrossSiteRequest, type OriginCheckInput } from './origin-check.js';

const base: OriginCheckInput = {
  method: 'POST',
  origin: undefined,
  referer: undefined,
  host: 'clipit.example',
  publicOrigin: undefined,
  cookieBound: false,
};
const check = (patch: Partial<OriginCheckInput>) => isCrossSiteRequest({ ...base, ...patch });

describe('cross-site check', () => {
  it('lets safe methods through whatever their origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(check({ method, origin: 'https://evil.example' })).toBe(false);
  });

  it('refuses every state-changing method from a foreign origin', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(check({ method, origin: 'https://evil.example' })).toBe(true);
  });

  it('accepts writes with neither Origin nor Referer when they carry no session cookie (curl, server to server, bearer tokens)', () => {
    expect(check({})).toBe(false);
  });

  it('refuses cookie-bearing writes with neither Origin nor Referer, as a foreign origin', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(check({ method, cookieBound: true })).toBe(true);
    expect(check({ cookieBound: true, origin: '' })).toBe(true);
    expect(check({ method: 'GET', cookieBound: true })).toBe(false);
    expect(check({ cookieBound: true, origin: 'https://clipit.example' })).toBe(false);
    expect(check({ cookieBound: true, referer: 'https://clipit.example/dashboard' })).toBe(false);
  });

  it('accepts the same host as the Host header when no public origin is configured', () => {
    expect(check({ origin: 'https://clipit.example' })).toBe(false);
    expect(check({ origin: 'http://CLIPIT.example' })).toBe(false);
  });

  it('compares ports as part of the host', () => {
    expect(check({ host: 'localhost:8080', origin: 'http://localhost:8080' })).toBe(false);
    expect(check({ host: 'localhost:8080', origin: 'http://localhost:3000' })).toBe(true);
  });

  it('falls back to the Referer when Origin is absent', () => {
    expect(check({ referer: 'https://clipit.example/login?x=1' })).toBe(false);
    expect(check({ referer: 'https://evil.example/clipit.example' })).toBe(true);
  });

  it('prefers Origin over Referer', () => {
    expect(check({ origin: 'https://evil.example', referer: 'https://clipit.example/' })).toBe(true);
  });

  it('refuses opaque and malformed origins', () => {
    expect(check({ origin: 'null' })).toBe(true);
    expect(check({ origin: 'not a url' })).toBe(true);
    expect(check({ origin: 'file:///tmp/x.html' })).toBe(true);
  });

  it('accepts only PUBLIC_ORIGIN (scheme, host and port) when it is configured', () => {
    const publicOrigin = 'https://clipit.example';
    expect(check({ publicOrigin, host: 'gateway.internal:8080', origin: 'https://clipit.example' })).toBe(false);
    expect(check({ publicOrigin, host: 'gateway.internal:8080', origin: 'http://clipit.example' })).toBe(true);
    expect(check({ publicOrigin, host: 'gateway.internal:8080', origin: 'http://gateway.internal:8080' })).toBe(true);
  });
});

describe('hasCookie', () => {
  it('finds the named cookie with a value, and only it', () => {
    expect(hasCookie('clipit.sid=abc', 'clipit.sid')).toBe(true);
    expect(hasCookie('theme=dark; clipit.sid=abc; x=1', 'clipit.sid')).toBe(true);
    expect(hasCookie('clipit.sid=', 'clipit.sid')).toBe(false);
    expect(hasCookie('other.clipit.sid=abc', 'clipit.sid')).toBe(false);
    expect(hasCookie('clipit.sidx=abc', 'clipit.sid')).toBe(false);
    expect(hasCookie(undefined, 'clipit.sid')).toBe(false);
  });
});
