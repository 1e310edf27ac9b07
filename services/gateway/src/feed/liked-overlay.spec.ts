import { describe, expect, it } from '@jest/globals';
import type { FeedClipJson, FeedPageJson } from './feed.schemas.js';
import { likedSlots, overlayLiked } from './liked-overlay.js';
import { serialize, type CachedRead } from './read-cache.js';

function clip(id: string, name: string): FeedClipJson {
  return {
    id,
    name,
    description: `about ${name}`,
    url: `https://x.com/a/status/${id}`,
    authorHandle: 'a',
    videoUrl: null,
    videoDuration: null,
    videoAspectRatio: null,
    videoThumbnailUrl: null,
    hasVideo: 'false',
    views: 1,
    likes: 2,
    retweets: 3,
    publishedAt: null,
    userId: 'u',
    tokenId: null,
    muxPlaybackId: null,
    likeCount: 4,
    likedByCurrentUser: false,
    user: null,
    clipperProfile: null,
    token: null,
  } as unknown as FeedClipJson;
}

function page(clips: FeedClipJson[]): CachedRead<FeedPageJson> {
  const value: FeedPageJson = { submissions: clips, nextCursor: 'next' };
  return { value, ...serialize(value), generation: 0, expiresAt: Date.now() + 10_000 };
}

/** What the route answered before the splice: the value marked and serialised again. */
const reserialised = (p: CachedRead<FeedPageJson>, liked: Set<string>) =>
  serialize({ ...p.value, submissions: p.value.submissions.map((c) => (liked.has(c.id) ? { ...c, likedByCurrentUser: true } : c)) });

describe('overlayLiked', () => {
  // A name holding the very key (escaped in the JSON, so never taken for it).
  const shared = page([clip('c1', 'one'), clip('c2', '"likedByCurrentUser":false'), clip('c3', 'three'), clip('c4', 'four')]);

  it('is the shared answer itself for a reader who liked none of the page', () => {
    expect(overlayLiked(shared, new Set())).toBe(shared);
    expect(overlayLiked(shared, new Set(['elsewhere']))).toBe(shared);
  });

  it('gives the very bytes and ETag of the page marked and serialised again, whichever clips are liked', () => {
    for (const liked of [['c1'], ['c2'], ['c4'], ['c1', 'c3'], ['c1', 'c2', 'c3', 'c4'], ['c2', 'nowhere']]) {
      const set = new Set(liked);
      const got = overlayLiked(shared, set);
      const want = reserialised(shared, set);
      expect(got.body.toString()).toBe(want.body.toString());
      expect(got.etag).toBe(want.etag);
      expect(got.etag).not.toBe(shared.etag);
    }
  });

  it('finds one slot per clip, never inside a string', () => {
    const slots = likedSlots(shared.body, 4)!;
    expect(slots).toHaveLength(4);
    for (const at of slots) expect(shared.body.subarray(at, at + 26).toString()).toBe('"likedByCurrentUser":false');
    expect(likedSlots(shared.body, 5)).toBeUndefined();
  });

  it('serialises again when the bytes are not of the expected shape', () => {
    const odd = page([clip('c1', 'one')]);
    const bent = { ...odd, ...serialize({ ...odd.value, extra: { likedByCurrentUser: false } }) };
    bent.value = { ...odd.value, extra: { likedByCurrentUser: false } } as unknown as FeedPageJson;
    const got = overlayLiked(bent, new Set(['c1']));
    expect(JSON.parse(got.body.toString()).submissions[0].likedByCurrentUser).toBe(true);
    expect(JSON.parse(got.body.toString()).extra.likedByCurrentUser).toBe(false);
  });
});
