import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { API_KEY_MESSAGES, API_KEYS_PER_USER_MAX, apiKeyFrom } from '@clipit/field-rules';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { ApiKeyRow } from '../domain/api-key.js';
import { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { ApiKeysService } from './api-keys.service.js';

const OWNER = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const KEY_ID = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';
const tx = {} as EntityManager;
const now = new Date('2026-11-30T12:00:00.000Z');
const KEY = apiKeyFrom('aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0');

const row = (patch: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
  id: KEY_ID,
  userId: OWNER,
  name: 'CI reader',
  prefix: 'clipit_aB3dE',
  scopes: ['campaigns:read'],
  expiresAt: null,
  createdAt: now,
  lastUsedAt: null,
  ...patch,
});

function setup() {
  const { service, mock } = createTestService(ApiKeysService);
  const keys = mock(ApiKeyRepository);
  runTransactionsWith(mock(TransactionRunner), tx);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, keys, outbox };
}

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);
const create = { userId: OWNER, name: ' CI reader ', scopes: ['leaderboards:read', 'campaigns:read'] };

describe('ApiKeysService.create', () => {
  it('counts the live keys under the user lock, stores the hash and the prefix, and tells the key once', async () => {
    const f = setup();
    const calls: string[] = [];
    f.keys.lockUser.mockImplementation(async () => void calls.push('lock'));
    f.keys.countLive.mockImplementation(async () => (calls.push('count'), API_KEYS_PER_USER_MAX - 1));
    f.keys.insert.mockImplementation(async (_tx, draft) => (calls.push('insert'), row({ ...draft, id: KEY_ID })));

    const created = await f.service.create({ ...create, expiresAt: '2027-01-31T00:00:00Z' }, now);

    expect(calls).toEqual(['lock', 'count', 'insert']);
    expect(f.keys.lockUser).toHaveBeenCalledWith(tx, OWNER);
    expect(f.keys.countLive).toHaveBeenCalledWith(tx, OWNER, now);
    const [, draft] = f.keys.insert.mock.calls[0]!;
    expect(draft).toEqual({
      userId: OWNER,
      name: 'CI reader',
      prefix: created.secret.slice(0, 12),
      hash: createHash('sha256').update(created.secret).digest('hex'),
      scopes: ['campaigns:read', 'leaderboards:read'],
      expiresAt: new Date('2027-01-31T00:00:00Z'),
      createdAt: now,
    });
    expect(created.secret).toMatch(/^clipit_[0-9A-Za-z]{36}$/);
    expect(created.key).toEqual({
      id: KEY_ID,
      name: 'CI reader',
      prefix: created.secret.slice(0, 12),
      scopes: ['campaigns:read', 'leaderboards:read'],
      expiresAt: '2027-01-31T00:00:00.000Z',
      createdAt: now.toISOString(),
    });
    expect(JSON.stringify(draft)).not.toContain(created.secret);
  });

  it('refuses a user holding API_KEYS_PER_USER_MAX live keys, storing nothing', async () => {
    const f = setup();
    f.keys.lockUser.mockResolvedValue(undefined);
    f.keys.countLive.mockResolvedValue(API_KEYS_PER_USER_MAX);
    expect(await failure(f.service.create(create, now))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      message: API_KEY_MESSAGES.tooManyKeys,
    });
    expect(f.keys.insert).not.toHaveBeenCalled();
  });

  it("refuses a bad user id and fields with field-rules' words before opening a transaction", async () => {
    const f = setup();
    const cases: Array<[Parameters<ApiKeysService['create']>[0], string]> = [
      [{ ...create, userId: 'nope' }, 'Invalid user id'],
      [{ ...create, name: '  ' }, API_KEY_MESSAGES.nameRequired],
      [{ ...create, name: 'x'.repeat(61) }, API_KEY_MESSAGES.nameTooLong],
      [{ ...create, scopes: [] }, API_KEY_MESSAGES.scopesRequired],
      [{ ...create, scopes: ['campaigns:write'] }, API_KEY_MESSAGES.badScope],
      [{ ...create, expiresAt: 'next week' }, API_KEY_MESSAGES.badExpiry],
      [{ ...create, expiresAt: '2026-11-29T00:00:00Z' }, API_KEY_MESSAGES.expiryPast],
      [{ ...create, expiresAt: '2028-01-01T00:00:00Z' }, API_KEY_MESSAGES.expiryTooFar],
    ];
    for (const [request, message] of cases) {
      expect(await failure(f.service.create(request, now))).toMatchObject({ code: status.INVALID_ARGUMENT, message });
    }
    expect(f.keys.lockUser).not.toHaveBeenCalled();
  });
});

describe('ApiKeysService.list', () => {
  it("answers the repository's keys as the list shows them, never a secret", async () => {
    const f = setup();
    const expired = row({ id: 'e0000000-0000-4000-8000-000000000000', expiresAt: new Date('2026-11-01T00:00:00Z') });
    f.keys.listForUser.mockResolvedValue([row({ lastUsedAt: now }), expired]);
    await expect(f.service.list({ userId: OWNER.toUpperCase() })).resolves.toEqual({
      keys: [
        {
          id: KEY_ID,
          name: 'CI reader',
          prefix: 'clipit_aB3dE',
          scopes: ['campaigns:read'],
          createdAt: now.toISOString(),
          lastUsedAt: now.toISOString(),
        },
        {
          id: expired.id,
          name: 'CI reader',
          prefix: 'clipit_aB3dE',
          scopes: ['campaigns:read'],
          expiresAt: '2026-11-01T00:00:00.000Z',
          createdAt: now.toISOString(),
        },
      ],
    });
    expect(f.keys.listForUser).toHaveBeenCalledWith(OWNER);
    expect(await failure(f.service.list({ userId: '' }))).toMatchObject({ code: status.INVALID_ARGUMENT, message: 'Invalid user id' });
  });
});

describe('ApiKeysService.revoke', () => {
  it('revokes and appends apikey.revoked in the same transaction', async () => {
    const f = setup();
    f.keys.revoke.mockResolvedValue(true);
    await expect(f.service.revoke({ userId: OWNER, keyId: KEY_ID }, now)).resolves.toEqual({});
    expect(f.keys.revoke).toHaveBeenCalledWith(tx, OWNER, KEY_ID, now);
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'apikey.revoked', { keyId: KEY_ID, userId: OWNER, at: now.toISOString() });
  });

  it("answers not found, publishing nothing, when the key is unknown, someone else's or revoked before", async () => {
    const f = setup();
    f.keys.revoke.mockResolvedValue(false);
    expect(await failure(f.service.revoke({ userId: OWNER, keyId: KEY_ID }, now))).toMatchObject({
      code: status.NOT_FOUND,
      message: API_KEY_MESSAGES.keyNotFound,
    });
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('refuses a key id or user id that is not a uuid without a lookup', async () => {
    const f = setup();
    expect(await failure(f.service.revoke({ userId: OWNER, keyId: 'clipit_abc' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: API_KEY_MESSAGES.invalidKeyId,
    });
    expect(await failure(f.service.revoke({ userId: 'x', keyId: KEY_ID }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid user id',
    });
    expect(f.keys.revoke).not.toHaveBeenCalled();
  });
});

describe('ApiKeysService.authenticate', () => {
  it('answers whose key it is and what it may read, and notes the use', async () => {
    const f = setup();
    f.keys.findLiveByHash.mockResolvedValue({ id: KEY_ID, userId: OWNER, scopes: ['submissions:read'], expiresAt: null });
    f.keys.noteUse.mockResolvedValue(true);
    await expect(f.service.authenticate({ key: KEY }, now)).resolves.toEqual({
      keyId: KEY_ID,
      userId: OWNER,
      scopes: ['submissions:read'],
    });
    expect(f.keys.findLiveByHash).toHaveBeenCalledWith(createHash('sha256').update(KEY).digest('hex'), now);
    expect(f.keys.noteUse).toHaveBeenCalledWith(KEY_ID, now);
  });

  it('tells when the key expires, so a cache does not keep it past that', async () => {
    const f = setup();
    const expiresAt = new Date('2026-12-01T00:00:00Z');
    f.keys.findLiveByHash.mockResolvedValue({ id: KEY_ID, userId: OWNER, scopes: ['campaigns:read'], expiresAt });
    f.keys.noteUse.mockResolvedValue(false);
    await expect(f.service.authenticate({ key: KEY }, now)).resolves.toMatchObject({ expiresAt: '2026-12-01T00:00:00.000Z' });
  });

  it('refuses a malformed key or a wrong checksum without a lookup, and an unknown key with the same words', async () => {
    const f = setup();
    const wrongChecksum = KEY.slice(0, -1) + (KEY.endsWith('A') ? 'B' : 'A');
    for (const key of ['', 'clipit_', 'Bearer ' + KEY, wrongChecksum, KEY.toUpperCase()]) {
      expect(await failure(f.service.authenticate({ key }, now))).toMatchObject({
        code: status.UNAUTHENTICATED,
        message: API_KEY_MESSAGES.keyRefused,
      });
    }
    expect(f.keys.findLiveByHash).not.toHaveBeenCalled();

    f.keys.findLiveByHash.mockResolvedValue(undefined);
    expect(await failure(f.service.authenticate({ key: KEY }, now))).toMatchObject({
      code: status.UNAUTHENTICATED,
      message: API_KEY_MESSAGES.keyRefused,
    });
    expect(f.keys.noteUse).not.toHaveBeenCalled();
  });
});
