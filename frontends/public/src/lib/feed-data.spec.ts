import { describe, expect, it, jest } from '@jest/globals';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { fakeGateway } from '@clipit/web-testing';
import {
  applyLikeState,
  clipsOf,
  feedPageUrl,
  feedQueryKey,
  readFeedPage,
  requestFirstPageEarly,
  type FeedClip,
  type FeedPage,
} from './feed-data.js';

const clip = (id: string, likeCount = 0) => ({ id, likeCount, likedByCurrentUser: false }) as FeedClip;
const pages = (...lists: FeedClip[][]): InfiniteData<FeedPage, string | null> => ({
  pages: lists.map((submissions, i) => ({ submissions, nextCursor: i < lists.length - 1 ? `c${i + 1}` : null })),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i}`)),
});

describe('feed data', () => {
  it('asks for pages of 10, then by the cursor it was given (encoded)', () => {
    expect(feedPageUrl(null)).toBe('/api/feed/clips?limit=10');
    expect(feedPageUrl('2025-01-01T00:00:00Z|a/b')).toBe('/api/feed/clips?limit=10&cursor=2025-01-01T00%3A00%3A00Z%7Ca%2Fb');
  });

  it('lists the clips of all pages in order, each once', () => {
    expect(clipsOf(undefined)).toEqual([]);
    expect(clipsOf(pages([clip('a'), clip('b')], [clip('b'), clip('c')])).map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('writes the server’s like into the loaded pages and marks them stale without refetching', () => {
    const client = new QueryClient();
    client.setQueryData(feedQueryKey, pages([clip('a', 1)], [clip('b', 7)]));
    applyLikeState(client, 'b', { likeCount: 8, likedByCurrentUser: true });
    const data = client.getQueryData<InfiniteData<FeedPage>>(feedQueryKey)!;
    expect(clipsOf(data).map((c) => [c.id, c.likeCount, c.likedByCurrentUser])).toEqual([
      ['a', 1, false],
      ['b', 8, true],
    ]);
    expect(client.getQueryState(feedQueryKey)?.isInvalidated).toBe(true);
  });

  it('asks for the first page as soon as the screen loads on /feed, fetches its first poster at once; the first read takes that answer, once', async () => {
    const first = { ...clip('first'), videoThumbnailUrl: '/media/videos/v1/poster.jpg' };
    const gateway = fakeGateway(() => ({ json: { submissions: [first], nextCursor: null } }));
    const RealImage = window.Image;
    const images: HTMLImageElement[] = [];
    const spy = jest.spyOn(window, 'Image').mockImplementation(() => {
      const image = new RealImage();
      images.push(image);
      return image;
    });
    requestFirstPageEarly();
    expect(gateway.calls).toEqual([]); // not on another page
    window.history.pushState({}, '', '/feed');
    requestFirstPageEarly();
    requestFirstPageEarly();
    expect(gateway.calls.map((c) => c.url)).toEqual(['/api/feed/clips?limit=10']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(images.map((image) => [image.getAttribute('src'), image.getAttribute('fetchpriority')])).toEqual([
      ['/media/videos/v1/poster.jpg', 'high'],
    ]);
    spy.mockRestore();
    await expect(readFeedPage(null)).resolves.toEqual({ submissions: [first], nextCursor: null });
    expect(gateway.calls).toHaveLength(1);
    await readFeedPage(null);
    await readFeedPage('c2');
    expect(gateway.calls.map((c) => c.url)).toEqual([
      '/api/feed/clips?limit=10',
      '/api/feed/clips?limit=10',
      '/api/feed/clips?limit=10&cursor=c2',
    ]);
    window.history.pushState({}, '', '/');
  });
});
