// API keys and the versioned read API (issue 37, ADR 0053) over real HTTP: a signed-in user makes keys in
// the dashboard's routes, developer owns them (hashed) and tells every gateway replica of a revocation;
// programs read /api/v1 with a key, never a cookie, within the key's scopes and its rate limit, paged
// and with ETags.
import { API_KEY_MESSAGES, isWellFormedApiKey } from '@clipit/field-rules';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayApp } from '../services/gateway/src/app.js';
import { publishFeedClips, signUp, type Account } from './support/accounts.js';
import { expectText, json } from './support/http.js';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';

const ALL_SCOPES = ['campaigns:read', 'submissions:read', 'leaderboards:read'];

interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
}

describe('API keys and /api/v1 (gateway replicas + developer + feed, real servers)', () => {
  let p: Platform;
  let second: GatewayApp;
  let owner: Account;

  const onSite = (base: string, path: string, init?: RequestInit) => fetch(...asOurPage(base, path, init));
  const withKey = (base: string, path: string, key: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  async function makeKey(who: Account, body: Record<string, unknown>): Promise<CreatedKey> {
    const res = await onSite(p.url, '/api/keys', json('POST', body, { cookie: who.cookie }));
    expect(res.status).toBe(201);
    return (await res.json()) as CreatedKey;
  }

  beforeAll(async () => {
    // The longest cache a replica may keep a key (1 s): a revocation must still be refused within it.
    p = await startPlatform({ API_KEY_CACHE_TTL_MS: 1000 });
    second = await p.startGateway();
    owner = await signUp(p.url, { prefix: 'key' });
  });

  afterAll(async () => {
    await p?.stop();
  });

  it('makes a key shown once, lists it by prefix without the key, and stores only its hash', async () => {
    const made = await makeKey(owner, { name: '  Agency dashboard  ', scopes: ['leaderboards:read', 'campaigns:read'], expiresAt: null });
    expect(made).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^clipit_[0-9A-Za-z]{36}$/),
      prefix: made.key.slice(0, 12),
      // In the scopes' own order, whatever order they were asked in.
      scopes: ['campaigns:read', 'leaderboards:read'],
      expiresAt: null,
    });
    expect(isWellFormedApiKey(made.key)).toBe(true);

    const list = await onSite(p.url, '/api/keys', { headers: { cookie: owner.cookie } });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(made.key);
    expect(JSON.parse(text)).toEqual({
      keys: [
        {
          id: made.id,
          name: 'Agency dashboard',
          prefix: made.prefix,
          scopes: ['campaigns:read', 'leaderboards:read'],
          expiresAt: null,
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ],
    });
    // Nothing in developer's database holds the key itself.
    const { rows } = await p.developerDb.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [made.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(made.key.slice(12));
  });

  it("refuses a key's bad name, scopes and expiry with the rules' words, and someone else's key with 404", async () => {
    const post = (body: unknown) => onSite(p.url, '/api/keys', json('POST', body, { cookie: owner.cookie }));
    await expectText(await post({ name: ' ', scopes: ALL_SCOPES }), 400, API_KEY_MESSAGES.nameRequired);
    await expectText(await post({ name: 'x'.repeat(61), scopes: ALL_SCOPES }), 400, API_KEY_MESSAGES.nameTooLong);
    await expectText(await post({ name: 'k', scopes: [] }), 400, API_KEY_MESSAGES.scopesRequired);
    await expectText(await post({ name: 'k', scopes: ['admin:write'] }), 400, API_KEY_MESSAGES.badScope);
    await expectText(await post({ name: 'k', scopes: ALL_SCOPES, expiresAt: 'tomorrow' }), 400, API_KEY_MESSAGES.badExpiry);
    await expectText(await post({ name: 'k', scopes: ALL_SCOPES, expiresAt: '2020-01-01T00:00:00Z' }), 400, API_KEY_MESSAGES.expiryPast);
    await expectText(await post({ name: 'k', scopes: ALL_SCOPES, token: 'x' }), 400, 'Unknown field: token');
    await expectText(await onSite(p.url, '/api/keys', json('POST', { name: 'k', scopes: ALL_SCOPES })), 401, 'Not signed in');

    const other = await signUp(p.url, { prefix: 'oth' });
    const theirs = await makeKey(other, { name: 'theirs', scopes: ALL_SCOPES });
    await expectText(
      await onSite(p.url, `/api/keys/${theirs.id}`, json('DELETE', undefined, { cookie: owner.cookie })),
      404,
      API_KEY_MESSAGES.keyNotFound,
    );
    await expectText(
      await onSite(p.url, '/api/keys/not-a-uuid', json('DELETE', undefined, { cookie: owner.cookie })),
      400,
      API_KEY_MESSAGES.invalidKeyId,
    );
    // Still theirs, still working.
    expect((await withKey(p.url, '/api/v1/leaderboards/clippers', theirs.key)).status).toBe(200);
  });

  it('never lets a key open a cookie route, nor a cookie an /api/v1 route', async () => {
    const { key } = await makeKey(owner, { name: 'crossing', scopes: ALL_SCOPES });
    // A key where the site wants a session.
    await expectText(await withKey(p.url, '/api/keys', key), 401, 'Not signed in');
    await expectText(await withKey(p.url, '/api/user/me', key), 401, 'Not signed in');
    // A session where the API wants a key.
    const cookieOnly = await fetch(`${p.url}/api/v1/leaderboards/clippers`, { headers: { cookie: owner.cookie } });
    await expectText(cookieOnly, 401, API_KEY_MESSAGES.keyMissing);
    expect(cookieOnly.headers.get('www-authenticate')).toBe('Bearer realm="clipit-api"');
    // A key with a mistyped character fails its checksum.
    const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    await expectText(await withKey(p.url, '/api/v1/leaderboards/clippers', typo), 401, API_KEY_MESSAGES.keyRefused);
  });

  it('limits a key to its scopes: 403 naming the missing one', async () => {
    const { key } = await makeKey(owner, { name: 'submissions only', scopes: ['submissions:read'] });
    await expectText(await withKey(p.url, '/api/v1/leaderboards/clips', key), 403, API_KEY_MESSAGES.scopeMissing('leaderboards:read'));
  });

  it('pages the leaderboards by cursor, with an ETag that answers 304 when nothing changed', async () => {
    const clippers = await Promise.all([1, 2, 3].map(() => signUp(p.url, { prefix: 'lb' })));
    for (const [i, clipper] of clippers.entries()) await publishFeedClips(p.names.subjectPrefix, clipper, i + 1, `Ranked ${i}`);
    const { key } = await makeKey(owner, { name: 'boards', scopes: ['leaderboards:read'] });
    type Page = { items: Array<{ rank: number; userId: string; approvedClips: number }>; nextCursor: string | null };
    const read = async (path: string): Promise<Page> => {
      const res = await withKey(p.url, path, key);
      expect(res.status).toBe(200);
      return (await res.json()) as Page;
    };
    // The feed's read model takes the clips in: wait until all three clippers rank.
    const deadline = Date.now() + 10_000;
    while ((await read('/api/v1/leaderboards/clippers?limit=100')).items.length < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const first = await read('/api/v1/leaderboards/clippers?limit=2');
    expect(first.items.map((i) => i.rank)).toEqual([1, 2]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = await read(`/api/v1/leaderboards/clippers?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(next.items.map((i) => i.rank)).toEqual([3]);
    expect(next.nextCursor).toBeNull();
    expect(new Set([...first.items, ...next.items].map((i) => i.userId))).toEqual(new Set(clippers.map((c) => c.id)));

    const clips = await read('/api/v1/leaderboards/clips?limit=4');
    expect(clips.items).toHaveLength(4);
    expect(clips.nextCursor).toEqual(expect.any(String));

    const res = await withKey(p.url, '/api/v1/leaderboards/clippers?limit=2', key);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const again = await withKey(p.url, '/api/v1/leaderboards/clippers?limit=2', key, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // Another replica computes the same ETag for the same answer.
    expect((await withKey(second.httpUrl, '/api/v1/leaderboards/clippers?limit=2', key, { 'if-none-match': etag! })).status).toBe(304);

    await expectText(
      await withKey(p.url, '/api/v1/leaderboards/clippers?limit=101', key),
      400,
      'limit must be a whole number from 1 to 100',
    );
    await expectText(await withKey(p.url, '/api/v1/leaderboards/clippers?cursor=bm9wZQ', key), 400, 'Invalid cursor');
  });

  it('refuses a revoked key within 1 s on every gateway replica', async () => {
    const made = await makeKey(owner, { name: 'to revoke', scopes: ['leaderboards:read'] });
    const replicas = [p.url, second.httpUrl];
    // Both replicas have the key in their caches.
    for (const base of replicas) expect((await withKey(base, '/api/v1/leaderboards/clips', made.key)).status).toBe(200);

    const revoked = await onSite(second.httpUrl, `/api/keys/${made.id}`, json('DELETE', undefined, { cookie: owner.cookie }));
    expect(revoked.status).toBe(204);
    const at = Date.now();
    const refusedAfter: number[] = [];
    for (const base of replicas) {
      for (;;) {
        const res = await withKey(base, '/api/v1/leaderboards/clips', made.key);
        if (res.status === 401) {
          expect(await res.text()).toBe(API_KEY_MESSAGES.keyRefused);
          refusedAfter.push(Date.now() - at);
          break;
        }
        expect(res.status).toBe(200);
        expect(Date.now() - at).toBeLessThan(1000);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(Math.max(...refusedAfter)).toBeLessThan(1000);
    // Revoked once: a second revocation finds nothing, and the list no longer shows it.
    await expectText(
      await onSite(p.url, `/api/keys/${made.id}`, json('DELETE', undefined, { cookie: owner.cookie })),
      404,
      API_KEY_MESSAGES.keyNotFound,
    );
    const { keys } = (await (await onSite(p.url, '/api/keys', { headers: { cookie: owner.cookie } })).json()) as { keys: { id: string }[] };
    expect(keys.map((k) => k.id)).not.toContain(made.id);
  });

  it('counts a key across replicas: past its limit, 429 with Retry-After on whichever replica', async () => {
    const limited = await Promise.all([0, 1].map(() => p.startGateway({ API_KEY_LIMIT_PER_WINDOW: 4, API_KEY_LIMIT_WINDOW_SECONDS: 60 })));
    const { key } = await makeKey(owner, { name: 'limited', scopes: ['leaderboards:read'] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await withKey(limited[i % 2]!.httpUrl, '/api/v1/leaderboards/clips', key)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const over = await withKey(limited[1]!.httpUrl, '/api/v1/leaderboards/clips', key);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.text()).toMatch(/^Too many requests with this API key\. Try again in \d+ (second|minute)s?\.$/);
    // Another key is counted on its own.
    const { key: other } = await makeKey(owner, { name: 'unlimited', scopes: ['leaderboards:read'] });
    expect((await withKey(limited[0]!.httpUrl, '/api/v1/leaderboards/clips', other)).status).toBe(200);
  });
});
