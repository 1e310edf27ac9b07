import { describe, expect, it } from '@jest/globals';
import { SessionCache } from '../auth/session-cache.js';
import type { GatewayConfig } from '../config.js';
import type { FeedPageJson } from './feed.schemas.js';
import { PersonalPages } from './personal-pages.js';
import { serialize, type CachedRead, type PublicReadCache } from './read-cache.js';

function setup(maxEntries = 100, ttlMs = 10_000, personalTtlMs = 60_000) {
  const reads = { currentGeneration: 0 };
  const config = {
    PUBLIC_READ_CACHE_TTL_MS: ttlMs,
    GATEWAY_PERSONAL_READ_CACHE_TTL_MS: personalTtlMs,
    GATEWAY_PERSONAL_READ_CACHE_MAX_ENTRIES: maxEntries,
  } as GatewayConfig;
  const sessions = new SessionCache({ ttlMs: 10_000, maxEntries: 100 });
  sessions.resume();
  const pages = new PersonalPages(config, reads as unknown as PublicReadCache, sessions);
  const page = (): CachedRead<FeedPageJson> => {
    const value = {
      submissions: [
        { id: 'c1', likedByCurrentUser: false },
        { id: 'c2', likedByCurrentUser: false },
      ],
      nextCursor: null,
    } as unknown as FeedPageJson;
    return { value, ...serialize(value), generation: reads.currentGeneration, expiresAt: Date.now() + ttlMs };
  };
  return { reads, pages, page, sessions };
}

const likedIn = (answer: { body: Buffer } | undefined) =>
  (JSON.parse(answer!.body.toString()) as FeedPageJson).submissions.filter((c) => c.likedByCurrentUser).map((c) => c.id);

describe('PersonalPages', () => {
  it("keeps each reader's likes on a page apart, and answers them laid over the shared page", () => {
    const { pages, page } = setup();
    const shared = page();
    expect(likedIn(pages.put('alice', 'k', shared, new Set(['c2'])))).toEqual(['c2']);
    pages.put('bob', 'k', shared, new Set());
    expect(likedIn(pages.peek('alice', 'k', shared))).toEqual(['c2']);
    expect(pages.peek('bob', 'k', shared)).toBe(shared);
    expect(pages.peek('carol', 'k', shared)).toBeUndefined();
    expect(pages.peek('alice', 'other page', shared)).toBeUndefined();
  });

  it('forgets everything on a feed notice (a like is one), and keeps nothing read across one', () => {
    const { reads, pages, page } = setup();
    const shared = page();
    pages.put('alice', 'k', shared, new Set(['c1']));
    reads.currentGeneration += 1;
    expect(pages.peek('alice', 'k', page())).toBeUndefined();
    // Liked set asked while a notice came: answered, not kept.
    const stale = page();
    reads.currentGeneration += 1;
    expect(likedIn(pages.put('alice', 'k', stale, new Set(['c1'])))).toEqual(['c1']);
    expect(pages.peek('alice', 'k', stale)).toBeUndefined();
  });

  it('lays the likes over a page loaded again in the same generation', () => {
    const { pages, page } = setup();
    pages.put('alice', 'k', page(), new Set(['c1']));
    const again = page();
    expect(likedIn(pages.peek('alice', 'k', again))).toEqual(['c1']);
  });

  it('keeps at most its bound, the least recently used going first, and nothing with the read cache off', () => {
    const { pages, page } = setup(2);
    const shared = page();
    pages.put('a', 'k', shared, new Set());
    pages.put('b', 'k', shared, new Set());
    pages.peek('a', 'k', shared);
    pages.put('c', 'k', shared, new Set());
    expect(pages.size).toBe(2);
    expect(pages.peek('b', 'k', shared)).toBeUndefined();
    expect(pages.peek('a', 'k', shared)).toBe(shared);
    const off = setup(10, 0);
    off.pages.put('a', 'k', off.page(), new Set());
    expect(off.pages.size).toBe(0);
  });

  it("shares one likedAmong call among a reader's concurrent misses of a page, and not across a feed notice", async () => {
    const { reads, pages, page } = setup();
    const shared = page();
    const releases: Array<() => void> = [];
    const likedAmong = () => new Promise<string[]>((resolve) => releases.push(() => resolve(['c1'])));
    const both = [pages.get('alice', 'k', shared, likedAmong), pages.get('alice', 'k', shared, likedAmong)];
    expect(releases).toHaveLength(1);
    reads.currentGeneration += 1;
    const fresh = page();
    const after = pages.get('alice', 'k', fresh, likedAmong);
    expect(releases).toHaveLength(2);
    releases.forEach((release) => release());
    const [a, b] = await Promise.all(both);
    expect(a).toBe(b);
    expect(likedIn(await after)).toEqual(['c1']);
    expect(pages.peek('alice', 'k', fresh)).toBeDefined();
  });

  it("lives its own time, longer than the shared page's (notices keep it fresh), and not past it", () => {
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      const { pages, page } = setup(100, 10_000, 60_000);
      pages.put('alice', 'k', page(), new Set(['c1']));
      now += 59_999;
      expect(likedIn(pages.peek('alice', 'k', page()))).toEqual(['c1']);
      now += 1;
      expect(pages.peek('alice', 'k', page())).toBeUndefined();
      const off = setup(100, 10_000, 0);
      off.pages.put('alice', 'k', off.page(), new Set(['c1']));
      expect(off.pages.size).toBe(0);
    } finally {
      Date.now = realNow;
    }
  });

  it('follows the session cache: all dropped when it is emptied, none served or kept while NATS cannot be heard', () => {
    const { pages, page, sessions } = setup();
    const shared = page();
    pages.put('alice', 'k', shared, new Set(['c1']));
    sessions.clear();
    expect(pages.peek('alice', 'k', shared)).toBeUndefined();
    pages.put('alice', 'k', shared, new Set(['c1']));
    sessions.suspend();
    expect(pages.peek('alice', 'k', shared)).toBeUndefined();
    expect(likedIn(pages.put('alice', 'k', shared, new Set(['c1'])))).toEqual(['c1']);
    expect(pages.size).toBe(0);
    sessions.resume();
    expect(pages.peek('alice', 'k', shared)).toBeUndefined();
    pages.put('alice', 'k', shared, new Set(['c1']));
    expect(pages.peek('alice', 'k', shared)).toBeDefined();
    // A user's changed data is not their likes.
    sessions.invalidateUser('alice');
    expect(pages.peek('alice', 'k', shared)).toBeDefined();
  });

  it('does not keep likes asked across the session cache being emptied (a notice may have been missed)', async () => {
    const { pages, page, sessions } = setup();
    const shared = page();
    let release: (() => void) | undefined;
    const likedAmong = () => new Promise<string[]>((resolve) => (release = () => resolve(['c1'])));
    const answer = pages.get('alice', 'k', shared, likedAmong);
    const fresh = pages.get('bob', 'k', shared, async () => {
      sessions.suspend();
      sessions.resume();
      return ['c2'];
    });
    expect(likedIn(await fresh)).toEqual(['c2']);
    sessions.clear();
    release!();
    expect(likedIn(await answer)).toEqual(['c1']);
    expect(pages.peek('alice', 'k', shared)).toBeUndefined();
    expect(pages.peek('bob', 'k', shared)).toBeUndefined();
  });
});
