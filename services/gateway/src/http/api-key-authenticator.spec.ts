import { status as GrpcStatus } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { buildEventEnvelope } from '@clipit/service-kit';
import { apiKeyFrom, API_KEY_MESSAGES } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import type { GatewayConfig } from '../config.js';
import { ApiKeyAuthenticator, ApiKeyRefused } from './api-key-authenticator.js';

const quiet = { warn: () => undefined } as never;
const KEY = apiKeyFrom('a'.repeat(30));
const OTHER = apiKeyFrom('b'.repeat(30));
const KEY_ID = '6f1c2a52-3a51-4c55-9a6c-1f0f8f4c2b10';
const USER_ID = '2d4c9a40-5b7e-4e0f-8f8a-0c6d1f3b9e21';

function setup(ttlMs = 500, answers: Record<string, { expiresAt?: string } | 'refused'> = { [KEY]: {}, [OTHER]: {} }) {
  let callback: ((err: Error | null, msg: { json: () => unknown }) => void) | undefined;
  let subject = '';
  const nc = {
    subscribe: (s: string, opts: { callback: typeof callback }) => (
      (subject = s),
      (callback = opts.callback),
      { unsubscribe: () => undefined }
    ),
  };
  const calls: string[] = [];
  const developer = {
    authenticateKey: async ({ key }: { key: string }) => {
      calls.push(key);
      const answer = answers[key];
      if (!answer || answer === 'refused')
        throw new GrpcCallError(GrpcStatus.UNAUTHENTICATED, API_KEY_MESSAGES.keyRefused, 'authenticateKey', true);
      return { keyId: key === KEY ? KEY_ID : 'other', userId: USER_ID, scopes: ['leaderboards:read', 'nonsense'], ...answer };
    },
  };
  const config = { API_KEY_CACHE_TTL_MS: ttlMs, EVENTS_SUBJECT_PREFIX: 'events' } as GatewayConfig;
  const keys = new ApiKeyAuthenticator(developer as never, config, nc as never, quiet);
  keys.onModuleInit();
  const revoked = (keyId: unknown) =>
    callback!(null, {
      json: () => buildEventEnvelope('apikey.revoked', { keyId, userId: USER_ID, at: new Date().toISOString() } as never),
    });
  return { keys, calls, revoked, subject: () => subject, garbled: () => callback!(null, { json: () => ({ nope: true }) }) };
}

describe('ApiKeyAuthenticator', () => {
  it('asks developer once, keeps the answer for its lifetime only, and keeps only the scopes it knows', async () => {
    const { keys, calls, subject } = setup(50);
    expect(subject()).toBe('events.developer.apikey.revoked.v1');
    await expect(keys.authenticate(KEY)).resolves.toEqual({ keyId: KEY_ID, userId: USER_ID, scopes: ['leaderboards:read'] });
    await keys.authenticate(KEY);
    expect(calls).toEqual([KEY]);
    await new Promise((r) => setTimeout(r, 60));
    await keys.authenticate(KEY);
    expect(calls).toEqual([KEY, KEY]);
  });

  it('refuses a malformed key or a checksum typo without asking developer, and keeps no refusal', async () => {
    const { keys, calls } = setup(500, { [KEY]: 'refused' });
    const typo = `${KEY.slice(0, 10)}${KEY[10] === 'x' ? 'y' : 'x'}${KEY.slice(11)}`;
    for (const bad of ['clipit_short', typo, 'ghp_' + 'a'.repeat(36)]) await expect(keys.authenticate(bad)).rejects.toThrow(ApiKeyRefused);
    expect(calls).toEqual([]);
    await expect(keys.authenticate(KEY)).rejects.toThrow(API_KEY_MESSAGES.keyRefused);
    await expect(keys.authenticate(KEY)).rejects.toThrow(ApiKeyRefused);
    expect(calls).toEqual([KEY, KEY]);
  });

  it('shares one call among requests at once, and drops a key as soon as its revocation is heard', async () => {
    const { keys, calls, revoked } = setup(1000);
    await Promise.all([keys.authenticate(KEY), keys.authenticate(KEY), keys.authenticate(OTHER)]);
    expect(calls).toEqual([KEY, OTHER]);
    revoked(KEY_ID);
    expect(keys.size).toBe(1);
    await keys.authenticate(KEY);
    await keys.authenticate(OTHER);
    expect(calls).toEqual([KEY, OTHER, KEY]);
  });

  it('does not keep an answer that was under way when a revocation came, nor past the key expiry', async () => {
    const soon = new Date(Date.now() + 30).toISOString();
    const { keys, calls, revoked } = setup(1000, { [KEY]: {}, [OTHER]: { expiresAt: soon } });
    const underway = keys.authenticate(KEY);
    revoked(KEY_ID);
    await underway;
    await keys.authenticate(KEY);
    expect(calls).toEqual([KEY, KEY]);
    await keys.authenticate(OTHER);
    await new Promise((r) => setTimeout(r, 40));
    await keys.authenticate(OTHER);
    expect(calls).toEqual([KEY, KEY, OTHER, OTHER]);
  });

  it('empties itself when a revocation cannot be read', async () => {
    const { keys, garbled } = setup(1000);
    await keys.authenticate(KEY);
    garbled();
    expect(keys.size).toBe(0);
  });
});
