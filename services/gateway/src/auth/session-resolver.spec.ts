import { status as GrpcStatus } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { GrpcCallError } from '@clipit/service-kit';
import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import type { IdentityClient } from '../clients.js';
// The request's fields the pipeline declares (renewedSession, sessionRejected).
import '../http/request-pipeline.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import { SessionCache } from './session-cache.js';
import { REFRESH_BATCH_MAX, REFRESH_BATCH_MS, SessionResolver } from './session.strategy.js';

const SID = 'a-session-id-long-enough-0123456789';
const T0 = Date.parse('2026-11-26T00:00:00.000Z');
const inDays = (days: number) => new Date(T0 + days * 86_400_000).toISOString();

const user = (id: string, twitterUsername = `handle_${id}`) => ({ id, twitterUsername, role: 'clipper' }) as identityV1.User;

type Answer = identityV1.ResolvedSession | Error;

/** Identity as the resolver sees it: each call takes the next answer when the test releases it. */
function fakeIdentity() {
  const calls: Array<(answer: Answer) => void> = [];
  /** The sids of each ResolveSessions call (the refreshes ahead, batched). */
  const batches: string[][] = [];
  const identity = {
    resolveSessionWithExpiry: () =>
      new Promise<identityV1.ResolvedSession>((resolve, reject) => {
        calls.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer)));
      }),
    // One answer per call as well: a live session is the answer, a dead one is left out, as identity does.
    resolveSessions: ({ sids }: identityV1.ResolveSessionsRequest) =>
      new Promise<identityV1.ResolveSessionsResponse>((resolve, reject) => {
        batches.push(sids);
        calls.push((answer) => {
          if (answer instanceof GrpcCallError && answer.code === GrpcStatus.UNAUTHENTICATED) resolve({ sessions: [] });
          else if (answer instanceof Error) reject(answer);
          else resolve({ sessions: [answer] });
        });
      }),
  } as unknown as IdentityClient;
  return { identity, calls, batches };
}

const live = (u: identityV1.User, expiresAt = inDays(14), renewed = false): identityV1.ResolvedSession => ({
  user: u,
  session: { sid: SID, expiresAt },
  renewed,
});

function setup() {
  const clock = { now: T0 };
  const cache = new SessionCache({ ttlMs: 10_000, maxEntries: 100, now: () => clock.now, random: () => 0 });
  cache.resume();
  const { identity, calls, batches } = fakeIdentity();
  const resolver = new SessionResolver(identity, cache);
  const request = () => ({ cookies: { [SESSION_COOKIE]: SID } }) as unknown as FastifyRequest;
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { clock, cache, resolver, calls, batches, request, settle };
}

describe('SessionResolver: sessions refreshed ahead of their cache entry', () => {
  it('resolves a session in use again in the background, once, and keeps answering from the cache meanwhile', async () => {
    const { clock, cache, resolver, calls, request, settle } = setup();
    const first = resolver.validate(request());
    calls.shift()!(live(user('u1')));
    expect((await first)?.user.id).toBe('u1');

    clock.now += 8_000;
    // Both answered at once from the cache; one call to identity between them.
    expect((await resolver.validate(request()))?.user.id).toBe('u1');
    expect((await resolver.validate(request()))?.user.id).toBe('u1');
    expect(cache.get(SID)?.user.id).toBe('u1');
    resolver.flushRefreshes();
    expect(calls).toHaveLength(1);
    calls.shift()!(live(user('u1', 'renamed')));
    await settle();
    // The refreshed answer lives a whole TTL from now: past the old entry's end it is still served.
    clock.now += 7_000;
    expect((await resolver.validate(request()))?.user.twitterUsername).toBe('renamed');
    expect(calls).toHaveLength(0);
  });

  it('re-issues the cookie on the next request through the route when identity renewed the session in a refresh', async () => {
    const { clock, cache, resolver, calls, request, settle } = setup();
    const first = resolver.validate(request());
    calls.shift()!(live(user('u1'), inDays(7)));
    const firstRequest = request();
    await first;
    expect(firstRequest.renewedSession).toBeUndefined();

    clock.now += 8_000;
    cache.get(SID);
    resolver.flushRefreshes();
    calls.shift()!(live(user('u1'), inDays(14), true));
    await settle();
    // The front sends the session's requests on until the route has re-issued the cookie.
    expect(cache.renewalPending(SID)).toBe(true);
    const next = request();
    expect((await resolver.validate(next))?.user.id).toBe('u1');
    expect(next.renewedSession).toEqual({ sid: SID, expiresAt: inDays(14) });
    expect(cache.renewalPending(SID)).toBe(false);
    const after = request();
    await resolver.validate(after);
    expect(after.renewedSession).toBeUndefined();
  });

  it('drops the entry when the refresh finds the session ended; its next request is refused', async () => {
    const { clock, cache, resolver, calls, request, settle } = setup();
    const first = resolver.validate(request());
    calls.shift()!(live(user('u1')));
    await first;
    clock.now += 8_000;
    cache.get(SID);
    resolver.flushRefreshes();
    calls.shift()!(new GrpcCallError(GrpcStatus.UNAUTHENTICATED, 'Not signed in', 'ResolveSessionWithExpiry', true));
    await settle();
    expect(cache.get(SID)).toBeUndefined();
    const next = request();
    const validating = resolver.validate(next);
    calls.shift()!(new GrpcCallError(GrpcStatus.UNAUTHENTICATED, 'Not signed in', 'ResolveSessionWithExpiry', true));
    expect(await validating).toBeNull();
    expect(next.sessionRejected).toBe(true);
  });

  it("drops the entry when identity fails during the refresh: the next request gets identity's own answer", async () => {
    const { clock, cache, resolver, calls, request, settle } = setup();
    const first = resolver.validate(request());
    calls.shift()!(live(user('u1')));
    await first;
    clock.now += 8_000;
    cache.get(SID);
    resolver.flushRefreshes();
    calls.shift()!(new GrpcCallError(GrpcStatus.UNAVAILABLE, 'identity away', 'ResolveSessionWithExpiry'));
    await settle();
    expect(cache.get(SID)).toBeUndefined();
    const validating = resolver.validate(request());
    calls.shift()!(new GrpcCallError(GrpcStatus.UNAVAILABLE, 'identity away', 'ResolveSessionWithExpiry'));
    await expect(validating).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
  });

  it('shares the refresh with a request that finds the entry gone meanwhile', async () => {
    const { clock, cache, resolver, calls, request } = setup();
    const first = resolver.validate(request());
    calls.shift()!(live(user('u1')));
    await first;
    clock.now += 8_000;
    cache.get(SID);
    resolver.flushRefreshes();
    clock.now += 2_000; // the entry's end: the refresh is still under way
    const waiting = resolver.validate(request());
    expect(calls).toHaveLength(1);
    calls.shift()!(live(user('u1')));
    expect((await waiting)?.user.id).toBe('u1');
    expect(cache.get(SID)?.user.id).toBe('u1');
  });
});

describe('SessionResolver: a request waiting for its own writes (read-your-writes, ADR 0043)', () => {
  it('asks identity itself instead of the cache, and the answer refreshes the cache for the next reads', async () => {
    const { cache, resolver, calls, request } = setup();
    const first = resolver.validate(request());
    calls.shift()!(live(user('u1')));
    await first;
    expect(cache.get(SID)?.user.twitterUsername).toBe('handle_u1');

    const waiting = { ...request(), readYourWrites: { after: [{ id: 'e1', type: 'social.stream-time-changed', until: T0 + 60_000 }] } };
    const fresh = resolver.validate(waiting as unknown as FastifyRequest);
    expect(calls).toHaveLength(1);
    calls.shift()!(live(user('u1', 'renamed')));
    expect((await fresh)?.user.twitterUsername).toBe('renamed');
    // The next request without pending writes is answered from the refreshed cache.
    expect((await resolver.validate(request()))?.user.twitterUsername).toBe('renamed');
    expect(calls).toHaveLength(0);
  });
});

describe('SessionResolver: refreshes ahead asked together', () => {
  const OTHER = 'another-session-id-long-enough-98765';

  it('asks identity once for every session due within the batch time, keeps the live and drops the dead', async () => {
    const { clock, cache, calls, batches } = setup();
    cache.set(SID, { user: user('u1'), expiresAt: inDays(14) }, cache.mark());
    cache.set(OTHER, { user: user('u2'), expiresAt: inDays(14) }, cache.mark());
    clock.now += 8_000;
    cache.get(SID);
    cache.get(OTHER);
    expect(calls).toHaveLength(0); // waiting for others due soon
    await new Promise((resolve) => setTimeout(resolve, REFRESH_BATCH_MS + 50));
    expect(batches).toEqual([[SID, OTHER]]);
    // Identity answers the first only: the other session ended.
    calls.shift()!(live(user('u1', 'renamed')));
    await new Promise((resolve) => setImmediate(resolve));
    clock.now += 7_000;
    expect(cache.get(SID)?.user.twitterUsername).toBe('renamed');
    expect(cache.get(OTHER)).toBeUndefined();
  });

  it('asks at once when a batch is full', () => {
    const { clock, cache, resolver, batches } = setup();
    const sids = Array.from({ length: REFRESH_BATCH_MAX }, (_, i) => `session-${String(i).padStart(3, '0')}-long-enough-0123456789`);
    for (const sid of sids) cache.set(sid, { user: user(sid), expiresAt: inDays(14) }, cache.mark());
    clock.now += 8_000;
    for (const sid of sids) cache.get(sid);
    expect(batches).toEqual([sids]);
    resolver.flushRefreshes(); // nothing left due
    expect(batches).toHaveLength(1);
  });
});
