import { createHash, randomUUID } from 'node:crypto';
import { parseEventData, subjectFor } from '@clipit/contracts';
import { API_KEY_MESSAGES, API_KEYS_PER_USER_MAX } from '@clipit/field-rules';
import { collectEvents, waitFor, type ReceivedEvent } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { refusal, startDeveloper, type DeveloperHarness } from '../support/developer-harness.js';

// API keys against the real Postgres and NATS: a key told once and kept only as its hash, refused once
// revoked or expired or mistyped, apikey.revoked published once per revocation, at most 20 live keys a user
// however many creates run at once, and the last use written about once a minute.

let h: DeveloperHarness;
let db: pg.Client;
let published: { events: ReceivedEvent[]; close(): Promise<void> };

beforeAll(async () => {
  h = await startDeveloper();
  db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
  published = await collectEvents(h.names.stream, `${h.names.subjectPrefix}.developer.>`);
});
afterAll(async () => {
  await published?.close();
  await db?.end();
  await h?.stop();
});

const revokedEventsOf = (keyId: string) =>
  published.events.filter((e) => e.envelope.type === 'apikey.revoked' && (e.envelope.data as { keyId: string }).keyId === keyId);

const newKey = (userId: string, patch: { name?: string; scopes?: string[]; expiresAt?: string } = {}) =>
  h.client.createKey({ userId, name: 'Reporting', scopes: ['campaigns:read', 'leaderboards:read'], ...patch });

const refused = [status.UNAUTHENTICATED, API_KEY_MESSAGES.keyRefused];

describe('CreateKey and AuthenticateKey', () => {
  it('makes a key that authenticates as its owner, with its scopes, and keeps only its hash and prefix', async () => {
    const userId = randomUUID();
    const { key, secret } = await newKey(userId);
    expect(secret).toMatch(/^clipit_[0-9A-Za-z]{36}$/);
    expect(key).toEqual({
      id: expect.any(String),
      name: 'Reporting',
      prefix: secret.slice(0, 12),
      scopes: ['campaigns:read', 'leaderboards:read'],
      createdAt: expect.any(String),
    });

    await expect(h.client.authenticateKey({ key: secret })).resolves.toEqual({
      keyId: key!.id,
      userId,
      scopes: ['campaigns:read', 'leaderboards:read'],
    });

    // No column of the row, nor anything else in the database's tables, holds the key itself.
    const { rows } = await db.query<{ row: string; key_hash: string; prefix: string }>(
      'SELECT t::text AS row, key_hash, prefix FROM api_keys t WHERE id = $1',
      [key!.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).not.toContain(secret);
    expect(rows[0]!.row).not.toContain(secret.slice(12));
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(rows[0]!.prefix).toBe(secret.slice(0, 12));
    const { rows: outbox } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE envelope::text LIKE $1', [
      `%${secret.slice(12)}%`,
    ]);
    expect(outbox[0]!.n).toBe(0);
  });

  it('lists the keys newest first with prefix, scopes and times, and never the key', async () => {
    const userId = randomUUID();
    const first = await newKey(userId, { name: 'First', scopes: ['submissions:read'] });
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const second = await newKey(userId, { name: 'Second', expiresAt });
    await newKey(randomUUID()); // someone else's

    const { keys } = await h.client.listKeys({ userId });
    expect(keys.map((k) => k.name)).toEqual(['Second', 'First']);
    expect(keys[0]).toEqual({ ...second.key, expiresAt });
    expect(keys[1]).toEqual({ ...first.key, scopes: ['submissions:read'] });
    expect(keys[1]!.prefix).toBe(first.secret.slice(0, 12));
    const listed = JSON.stringify(keys);
    expect(listed).not.toContain(first.secret);
    expect(listed).not.toContain(second.secret);
    expect(new Date(keys[0]!.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(keys[1]!.createdAt).getTime());
  });

  it("refuses bad fields with field-rules' words, and a bad user id", async () => {
    const userId = randomUUID();
    expect(await refusal(newKey(userId, { name: ' ' }))).toEqual([status.INVALID_ARGUMENT, API_KEY_MESSAGES.nameRequired]);
    expect(await refusal(newKey(userId, { scopes: ['campaigns:write'] }))).toEqual([status.INVALID_ARGUMENT, API_KEY_MESSAGES.badScope]);
    expect(await refusal(newKey(userId, { expiresAt: '2020-01-01T00:00:00Z' }))).toEqual([
      status.INVALID_ARGUMENT,
      API_KEY_MESSAGES.expiryPast,
    ]);
    expect(await refusal(newKey('someone'))).toEqual([status.INVALID_ARGUMENT, 'Invalid user id']);
    await expect(h.client.listKeys({ userId })).resolves.toEqual({ keys: [] });
  });

  it('refuses a key with a changed character, checksum or not, as it refuses an unknown one', async () => {
    const { secret } = await newKey(randomUUID());
    const swap = (at: number) => secret.slice(0, at) + (secret[at] === 'A' ? 'B' : 'A') + secret.slice(at + 1);
    expect(await refusal(h.client.authenticateKey({ key: swap(secret.length - 1) }))).toEqual(refused); // the checksum
    expect(await refusal(h.client.authenticateKey({ key: swap(20) }))).toEqual(refused); // the random part
    expect(await refusal(h.client.authenticateKey({ key: '' }))).toEqual(refused);
    expect(await refusal(h.client.authenticateKey({ key: secret.slice(0, -1) }))).toEqual(refused);
    await expect(h.client.authenticateKey({ key: secret })).resolves.toMatchObject({ scopes: ['campaigns:read', 'leaderboards:read'] });
  });

  it('refuses an expired key, still lists it with its expiry, and does not count it against the limit', async () => {
    const userId = randomUUID();
    const { key, secret } = await newKey(userId, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await expect(h.client.authenticateKey({ key: secret })).resolves.toMatchObject({ keyId: key!.id, expiresAt: key!.expiresAt });
    await db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [key!.id]);

    expect(await refusal(h.client.authenticateKey({ key: secret }))).toEqual(refused);
    const { keys } = await h.client.listKeys({ userId });
    expect(keys.map((k) => k.id)).toEqual([key!.id]);
    expect(new Date(keys[0]!.expiresAt!).getTime()).toBeLessThan(Date.now());

    await Promise.all(Array.from({ length: API_KEYS_PER_USER_MAX }, () => newKey(userId)));
    expect((await h.client.listKeys({ userId })).keys).toHaveLength(API_KEYS_PER_USER_MAX + 1);
  });

  it('writes last_used_at once for two uses within a minute, and again after a minute', async () => {
    const { key, secret } = await newKey(randomUUID());
    const seen = async () =>
      (
        await db.query<{ last_used_at: Date | null; version: string }>(
          'SELECT last_used_at, xmin::text AS version FROM api_keys WHERE id = $1',
          [key!.id],
        )
      ).rows[0]!;
    expect((await seen()).last_used_at).toBeNull();

    await h.client.authenticateKey({ key: secret });
    const first = await seen();
    expect(first.last_used_at).toBeInstanceOf(Date);
    await h.client.authenticateKey({ key: secret });
    // The same row version: the second use did not write at all.
    expect(await seen()).toEqual(first);
    expect((await h.client.listKeys({ userId: (await h.client.authenticateKey({ key: secret })).userId })).keys[0]!.lastUsedAt).toBe(
      first.last_used_at!.toISOString(),
    );

    await db.query(`UPDATE api_keys SET last_used_at = last_used_at - interval '61 seconds' WHERE id = $1`, [key!.id]);
    const aged = await seen();
    await h.client.authenticateKey({ key: secret });
    const after = await seen();
    expect(after.version).not.toBe(aged.version);
    expect(after.last_used_at!.getTime()).toBeGreaterThan(aged.last_used_at!.getTime());
  });
});

describe('RevokeKey', () => {
  it('refuses the key from then on and publishes apikey.revoked once, however often it is revoked', async () => {
    const userId = randomUUID();
    const { key, secret } = await newKey(userId);
    const other = await newKey(userId, { name: 'Other' });

    await expect(h.client.revokeKey({ userId, keyId: key!.id })).resolves.toEqual({});
    expect(await refusal(h.client.authenticateKey({ key: secret }))).toEqual(refused);
    expect(await refusal(h.client.revokeKey({ userId, keyId: key!.id }))).toEqual([status.NOT_FOUND, API_KEY_MESSAGES.keyNotFound]);
    expect((await h.client.listKeys({ userId })).keys.map((k) => k.id)).toEqual([other.key!.id]);
    await expect(h.client.authenticateKey({ key: other.secret })).resolves.toMatchObject({ keyId: other.key!.id });

    const [event] = await waitFor(() => (revokedEventsOf(key!.id).length ? revokedEventsOf(key!.id) : undefined), 10_000, 'apikey.revoked');
    expect(event!.subject).toBe(subjectFor('apikey.revoked', h.names.subjectPrefix));
    expect(event!.msgId).toBe(event!.envelope.id);
    expect(parseEventData('apikey.revoked', event!.envelope.data)).toEqual({ keyId: key!.id, userId, at: expect.any(String) });
    await new Promise((r) => setTimeout(r, 300));
    expect(revokedEventsOf(key!.id)).toHaveLength(1);
  });

  it('publishes once when the same key is revoked many times at once', async () => {
    const userId = randomUUID();
    const { key } = await newKey(userId);
    const answers = await Promise.allSettled(Array.from({ length: 8 }, () => h.client.revokeKey({ userId, keyId: key!.id })));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    await waitFor(() => (revokedEventsOf(key!.id).length ? true : undefined), 10_000, 'apikey.revoked');
    await new Promise((r) => setTimeout(r, 300));
    expect(revokedEventsOf(key!.id)).toHaveLength(1);
  });

  it("cannot revoke someone else's key: not found, the key still works, nothing published", async () => {
    const owner = randomUUID();
    const { key, secret } = await newKey(owner);
    expect(await refusal(h.client.revokeKey({ userId: randomUUID(), keyId: key!.id }))).toEqual([
      status.NOT_FOUND,
      API_KEY_MESSAGES.keyNotFound,
    ]);
    expect(await refusal(h.client.revokeKey({ userId: owner, keyId: randomUUID() }))).toEqual([
      status.NOT_FOUND,
      API_KEY_MESSAGES.keyNotFound,
    ]);
    expect(await refusal(h.client.revokeKey({ userId: owner, keyId: 'not-a-key-id' }))).toEqual([
      status.INVALID_ARGUMENT,
      API_KEY_MESSAGES.invalidKeyId,
    ]);
    await expect(h.client.authenticateKey({ key: secret })).resolves.toMatchObject({ keyId: key!.id, userId: owner });
    expect((await db.query('SELECT 1 FROM outbox WHERE envelope::text LIKE $1', [`%${key!.id}%`])).rowCount).toBe(0);
  });
});

describe('the limit of live keys', () => {
  it(`holds at ${API_KEYS_PER_USER_MAX} when more creates than that run at once, and frees a place on revoke`, async () => {
    const userId = randomUUID();
    const answers = await Promise.allSettled(
      Array.from({ length: API_KEYS_PER_USER_MAX + 6 }, (_, i) => newKey(userId, { name: `k${i}` })),
    );
    const made = answers.filter((a) => a.status === 'fulfilled');
    const refusals = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected').map((a) => a.reason as Error);
    expect(made).toHaveLength(API_KEYS_PER_USER_MAX);
    expect(refusals).toHaveLength(6);
    for (const err of refusals) expect(err).toMatchObject({ code: status.FAILED_PRECONDITION, message: API_KEY_MESSAGES.tooManyKeys });
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [userId]);
    expect(rows[0]!.n).toBe(API_KEYS_PER_USER_MAX);

    expect(await refusal(newKey(userId))).toEqual([status.FAILED_PRECONDITION, API_KEY_MESSAGES.tooManyKeys]);
    const { keys } = await h.client.listKeys({ userId });
    await h.client.revokeKey({ userId, keyId: keys[0]!.id });
    await expect(newKey(userId)).resolves.toMatchObject({ key: { name: 'Reporting' } });
  });
});
