import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import type { FeedClip } from '../lib/feed-data.js';
import FeedPage from './feed-page.js';

// jsdom has no IntersectionObserver: this one records what is observed, and `show` plays the browser.
class FakeObserver {
  static live = new Set<FakeObserver>();
  readonly targets = new Set<Element>();
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeObserver.live.add(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
    FakeObserver.live.delete(this);
  }
  takeRecords() {
    return [];
  }
}

/** Tells every observer of `target` that this much of it is visible (rootMargin included). */
function show(target: Element, ratio = 1) {
  act(() => {
    for (const observer of [...FakeObserver.live]) {
      if (!observer.targets.has(target)) continue;
      observer.callback(
        [{ target, isIntersecting: ratio > 0, intersectionRatio: ratio } as IntersectionObserverEntry],
        observer as unknown as IntersectionObserver,
      );
    }
  });
}

const playing = new Set<HTMLMediaElement>();

// jsdom loads no images: a poster 'loads' as soon as it is in the page (a card adds its video once its
// poster is on screen), as a cached one would in a browser.
let posters: MutationObserver | undefined;
function loadPostersAsTheyCome() {
  const loaded = new WeakSet<Element>();
  posters = new MutationObserver(() => {
    for (const img of document.querySelectorAll('img')) {
      if (loaded.has(img)) continue;
      loaded.add(img);
      setTimeout(() => img.dispatchEvent(new Event('load')), 0);
    }
  });
  posters.observe(document.body, { childList: true, subtree: true });
}
const setWidth = (width: number) => Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });

beforeEach(() => {
  FakeObserver.live.clear();
  playing.clear();
  Object.defineProperty(window, 'IntersectionObserver', { value: FakeObserver, configurable: true, writable: true });
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    playing.add(this);
    return Promise.resolve();
  });
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    playing.delete(this);
  });
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  setWidth(390);
  loadPostersAsTheyCome();
});
afterEach(() => {
  posters?.disconnect();
  jest.restoreAllMocks();
  Object.defineProperty(document, 'fullscreenElement', { value: null, configurable: true });
});

const clip = (n: number, extra: Partial<FeedClip> = {}): FeedClip => ({
  id: `clip-${n}`,
  name: `Clip ${n}`,
  description: null,
  url: `https://x.com/author${n}/status/${n}`,
  authorHandle: `author${n}`,
  videoUrl: `/media/videos/v${n}/video.mp4`,
  videoDuration: 3,
  videoAspectRatio: '9:16',
  videoThumbnailUrl: `/media/videos/v${n}/poster.jpg`,
  hasVideo: 'true',
  views: 0,
  likes: 0,
  retweets: 0,
  publishedAt: null,
  userId: `user-${n}`,
  tokenId: null,
  muxPlaybackId: `v${n}`,
  likeCount: 0,
  likedByCurrentUser: false,
  user: { displayName: `Name ${n}`, firstName: null, lastName: null, profileImageUrl: null, twitterUsername: `author${n}`, currentTier: 1 },
  clipperProfile: null,
  token: null,
  ...extra,
});
const clips = (from: number, count: number) => Array.from({ length: count }, (_, i) => clip(from + i));
const ME = { id: 'me', twitterUsername: 'fan', walletAddress: null, role: 'clipper' };
const FIRST = '/api/feed/clips?limit=10';

function setup(
  feed: (call: Call) => Reply | Promise<Reply>,
  me: Reply = { status: 401, text: 'Not signed in' },
  other?: (call: Call) => Reply | Promise<Reply>,
) {
  const gateway = fakeGateway((call) => {
    if (call.url === '/api/user/me') return me;
    if (call.url.startsWith('/api/feed/clips?')) return feed(call);
    return other?.(call) ?? { status: 404, text: 'No such route' };
  });
  const rendered = renderScreen(<FeedPage />, '/feed');
  return { gateway, user: userEvent.setup(), ...rendered };
}
const onePage = (list: FeedClip[]) => () => ({ json: { submissions: list, nextCursor: null } });
const cards = () => screen.getAllByRole('article');
const videos = () => [...document.querySelectorAll('video')];
const videoOf = (card: HTMLElement) => card.querySelector('video');
/**
 * Until `count` cards have their video: the first once its poster is on screen, the cards around it
 * once they are drawn (after the first poster) and their own posters are.
 */
const mediaShown = (count: number) => waitFor(() => expect(videos()).toHaveLength(count));

describe('/feed', () => {
  it('shows a card-sized box with the spinner while the first page loads, then the clips', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { gateway } = setup(async () => {
      await gate;
      return { json: { submissions: clips(1, 2), nextCursor: null } };
    });
    expect(screen.getByRole('heading', { level: 1, name: 'ClipTok' })).toBeInTheDocument();
    expect(screen.getAllByTestId('feed-skeleton')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Loading clips');
    release();
    expect(await screen.findByRole('feed', { name: 'Clips' })).toBeVisible();
    expect(cards()).toHaveLength(2);
    expect(screen.queryByTestId('feed-skeleton')).toBeNull();
    expect(gateway.calls.filter((c) => c.url.startsWith('/api/feed')).map((c) => c.url)).toEqual([FIRST]);
  });

  it('says the clips failed to load, and tries again', async () => {
    let fail = true;
    const { user } = setup(() =>
      fail ? { status: 500, text: 'Something went wrong. Please try again.' } : { json: { submissions: clips(1, 1), nextCursor: null } },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load clips. Please try again.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Clip 1' })).toBeVisible();
  });

  it('has an empty state when there are no clips', async () => {
    setup(onePage([]));
    expect(await screen.findByRole('heading', { name: 'No clips yet' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Submit a Clip' })).toHaveAttribute('href', '/submit');
    expect(screen.queryByRole('feed')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Unmute' })).toBeNull();
  });

  it('shows each clip’s name, description, author, figures, date, the link to its X post and the token’s trade link', async () => {
    const published = '2025-01-05T15:07:00';
    setup(
      onePage([
        clip(1, {
          description: 'The best moment of the stream',
          views: 1500,
          retweets: 2_000_000,
          likeCount: 12,
          publishedAt: published,
          user: {
            displayName: null,
            firstName: 'Ada',
            lastName: 'Lovelace',
            profileImageUrl: '/media/avatars/ada.jpg',
            twitterUsername: 'ada',
            currentTier: 2,
          },
          token: { id: 'tok-1', name: 'BIGCAT', pumpFunLink: 'https://pump.fun/coin/bigcat', streamerId: 'streamer-1' },
        }),
        clip(2, { user: null }),
      ]),
    );
    const [first, second] = await screen.findAllByRole('article');
    await mediaShown(2);
    const one = within(first!);
    expect(first).toHaveAccessibleName('Clip 1');
    expect(one.getByText('Ada Lovelace')).toBeVisible();
    expect(one.getByRole('link', { name: '@ada' })).toHaveAttribute('href', '/clipper/user-1');
    expect(first!.querySelector('.clipit-feed-avatar')).toHaveAttribute('src', '/media/avatars/ada.jpg');
    expect(one.getByText('1.5K')).toBeVisible();
    expect(one.getByText('2.0M')).toBeVisible();
    expect(one.getByTestId('like-count')).toHaveTextContent('12 likes');
    expect(one.getByText('Jan 5, 2025 • 3:07 PM')).toHaveAttribute('datetime', published);
    const trade = one.getByRole('link', { name: 'Trade $BIGCAT' });
    expect(trade).toHaveAttribute('href', 'https://pump.fun/coin/bigcat');
    expect(trade).toHaveAttribute('target', '_blank');
    expect(trade).toHaveAttribute('rel', 'noopener noreferrer');
    expect(one.getByText('The best moment of the stream')).toBeVisible();
    const post = one.getByRole('link', { name: 'View on X (opens in a new tab)' });
    expect(post).toHaveAttribute('href', 'https://x.com/author1/status/1');
    expect(post).toHaveAttribute('target', '_blank');
    expect(post).toHaveAttribute('rel', 'noopener noreferrer');

    // No user record: the post's handle names the author; no token, no trade link; no description, no paragraph.
    const two = within(second!);
    expect(second!.querySelector('.clipit-feed-card__description')).toBeNull();
    expect(two.getByRole('link', { name: 'View on X (opens in a new tab)' })).toHaveAttribute('href', 'https://x.com/author2/status/2');
    expect(two.getByText('author2')).toBeVisible();
    expect(two.getByRole('link', { name: '@author2' })).toHaveAttribute('href', '/clipper/user-2');
    expect(two.queryByRole('link', { name: /^Trade/ })).toBeNull();

    // The first poster is the page's largest paint: fetched first, not lazily.
    const posters = [...document.querySelectorAll<HTMLImageElement>('img.clipit-feed-media__poster')];
    expect(posters[0]).toHaveAttribute('fetchpriority', 'high');
    expect(posters[0]).toHaveAttribute('loading', 'eager');
    expect(posters[1]).not.toHaveAttribute('fetchpriority');
    expect(posters[1]).toHaveAttribute('loading', 'lazy');
  });

  it('plays the card at least half visible from the start and pauses the others; at most 3 videos hold media', async () => {
    setup(onePage(clips(1, 10)));
    await screen.findAllByRole('article');
    await waitFor(() => expect(videos()).toHaveLength(2));
    const list = cards();
    // The first card plays, muted; only it and its neighbour have a video.
    expect(videos().map((v) => v.getAttribute('src'))).toEqual(['/media/videos/v1/video.mp4', '/media/videos/v2/video.mp4']);
    expect([...playing]).toEqual([videoOf(list[0]!)]);
    expect(videoOf(list[0]!)!.muted).toBe(true);
    expect(list[5]!.querySelector('img.clipit-feed-media__poster')).toBeNull();
    // Cards beyond the lazy-load margin are only their box and title.
    expect(list[5]).toHaveAccessibleName('Clip 6');
    expect(within(list[5]!).queryByRole('button', { name: 'Like' })).toBeNull();
    expect(within(list[5]!).queryByRole('link')).toBeNull();

    // Less than half of the next card: nothing changes.
    show(list[1]!, 0.3);
    expect([...playing]).toEqual([videoOf(list[0]!)]);

    show(list[4]!, 0.6);
    // Their videos come as their posters show.
    await waitFor(() => expect(videos().map((v) => v.closest('article'))).toEqual([list[3], list[4], list[5]]));
    expect([...playing]).toEqual([videoOf(list[4]!)]);
    // Posters for the cards around it; the others stay boxes.
    expect(list[5]!.querySelector('img.clipit-feed-media__poster')).toHaveAttribute('src', '/media/videos/v6/poster.jpg');
    expect(list[8]!.querySelector('img.clipit-feed-media__poster')).toBeNull();

    // The neighbour already loaded, part-way in: it starts from 0 when it becomes the active one.
    const next = videoOf(list[5]!)!;
    next.currentTime = 2;
    show(list[5]!, 1);
    expect(next.currentTime).toBe(0);
    expect([...playing]).toEqual([next]);
    await waitFor(() => expect(videos()).toHaveLength(3));
    expect(videos().every((v) => v.getAttribute('preload') === (v === next ? 'auto' : 'metadata'))).toBe(true);
  });

  it("adds a card's video once its poster is on screen, and draws the cards around the first one after its poster", async () => {
    posters?.disconnect();
    setup(onePage(clips(1, 3)));
    const [first, second] = await screen.findAllByRole('article');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Only the first clip's poster is asked for: no video yet, and its neighbour is a box with a title.
    expect(videos()).toHaveLength(0);
    expect(document.querySelectorAll('img.clipit-feed-media__poster')).toHaveLength(1);
    expect(within(second!).queryByRole('button', { name: 'Like' })).toBeNull();
    fireEvent.load(first!.querySelector('img.clipit-feed-media__poster')!);
    await waitFor(() => expect(videoOf(first!)).not.toBeNull());
    expect(playing).toEqual(new Set([videoOf(first!)]));
    // Then the neighbour is drawn: its poster first, its video once that has loaded (or failed).
    await waitFor(() => expect(second!.querySelector('img.clipit-feed-media__poster')).not.toBeNull());
    expect(videoOf(second!)).toBeNull();
    fireEvent.error(second!.querySelector('img.clipit-feed-media__poster')!);
    await waitFor(() => expect(videoOf(second!)).not.toBeNull());
  });

  it('is muted until the viewer unmutes; then only the active clip has sound', async () => {
    const { user } = setup(onePage(clips(1, 3)));
    await screen.findAllByRole('article');
    await mediaShown(2);
    const [first, second] = cards();
    expect(videoOf(first!)!.muted).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(videoOf(first!)!.muted).toBe(false);
    expect(videoOf(second!)!.muted).toBe(true);
    show(second!, 1);
    expect(videoOf(second!)!.muted).toBe(false);
    expect(videoOf(first!)!.muted).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(videoOf(second!)!.muted).toBe(true);
  });

  it('says Video unavailable over the faded poster when a clip cannot play', async () => {
    setup(onePage([clip(1), clip(2, { hasVideo: 'false', videoUrl: null })]));
    await screen.findAllByRole('article');
    await mediaShown(1);
    const [first, second] = cards();
    await within(second!).findByText('Video unavailable');
    expect(within(first!).queryByText('Video unavailable')).toBeNull();
    fireEvent.error(videoOf(first!)!);
    expect(within(first!).getByText('Video unavailable')).toBeVisible();
    expect(within(first!).getByText('Unsupported format')).toBeVisible();
    expect(videoOf(first!)).toBeNull();
    expect(first!.querySelector('.clipit-feed-media')).toHaveClass('clipit-feed-media--failed');
    expect(first!.querySelector('img.clipit-feed-media__poster')).toHaveAttribute('src', '/media/videos/v1/poster.jpg');
    // A clip without a video never gets a <video>.
    expect(within(second!).getByText('Video unavailable')).toBeVisible();
    expect(videoOf(second!)).toBeNull();
  });

  it('loads the next page by cursor when the sentinel comes near, with a spinner meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { gateway } = setup(async (call) => {
      if (call.url === FIRST) return { json: { submissions: clips(1, 10), nextCursor: 'page/2' } };
      await gate;
      return { json: { submissions: [...clips(10, 1), ...clips(11, 10)], nextCursor: null } };
    });
    await screen.findAllByRole('article');
    expect(cards()).toHaveLength(10);
    expect(cards()[0]).toHaveAttribute('aria-setsize', '-1');
    show(screen.getByTestId('feed-sentinel'));
    expect(await screen.findByText('Loading more clips')).toBeInTheDocument();
    expect(screen.getByRole('feed')).toHaveAttribute('aria-busy', 'true');
    expect(gateway.calls.filter((c) => c.url.startsWith('/api/feed')).map((c) => c.url)).toEqual([FIRST, `${FIRST}&cursor=page%2F2`]);
    release();
    // Clip 10 came again on the second page: it is shown once.
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(screen.queryByText('Loading more clips')).toBeNull();
    expect(screen.queryByTestId('feed-sentinel')).toBeNull();
    expect(cards()[19]).toHaveAccessibleName('Clip 20');
    expect(cards()[0]).toHaveAttribute('aria-setsize', '20');
  });

  it('says so when the next page fails, keeps the clips and tries again on request', async () => {
    let fail = true;
    const { user } = setup((call) => {
      if (call.url === FIRST) return { json: { submissions: clips(1, 10), nextCursor: 'c2' } };
      return fail ? { status: 503, text: 'Service temporarily unavailable' } : { json: { submissions: clips(11, 2), nextCursor: null } };
    });
    await screen.findAllByRole('article');
    show(screen.getByTestId('feed-sentinel'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load clips. Please try again.');
    expect(cards()).toHaveLength(10);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(cards()).toHaveLength(12));
  });

  describe('hiring', () => {
    const gold = (n: number, tier: number) =>
      clip(n, {
        user: {
          displayName: `Name ${n}`,
          firstName: null,
          lastName: null,
          profileImageUrl: null,
          twitterUsername: `author${n}`,
          currentTier: tier,
        },
      });

    it('shows Hire Clipper only on a gold clipper’s clip', async () => {
      setup(onePage([gold(1, 3), gold(2, 2)]));
      const [first, second] = await screen.findAllByRole('article');
      await mediaShown(2);
      expect(within(first!).getByRole('button', { name: 'Hire Clipper Name 1' })).toBeVisible();
      expect(within(second!).getByText('Name 2')).toBeVisible();
      expect(within(second!).queryByRole('button', { name: /Hire Clipper/ })).toBeNull();
    });

    it('opens the hire dialog for a diamond clipper’s clip, loading its profile; Escape closes it and focus returns', async () => {
      const { user, gateway } = setup(onePage([gold(1, 4)]), undefined, (call) =>
        call.url === '/api/clippers/user-1/profile'
          ? {
              json: {
                id: 'cp-1',
                userId: 'user-1',
                displayName: 'Name 1',
                twitterUsername: 'author1',
                bio: null,
                profileImageUrl: null,
                portfolioUrls: [],
                specialties: [],
                yearsExperience: null,
                hourlyRate: null,
                isAvailable: 'true',
                totalHires: 3,
                averageRating: 5,
                totalReviews: 2,
                socialLinks: [],
                clipPoints: 900,
                clipperTier: 'gold',
                canBeHired: true,
                services: [],
                createdAt: '2026-11-01T00:00:00.000Z',
                updatedAt: '2026-11-01T00:00:00.000Z',
              },
            }
          : { status: 404, text: 'No such route' },
      );
      const hire = await screen.findByRole('button', { name: 'Hire Clipper Name 1' });
      expect(hire).toHaveAttribute('aria-haspopup', 'dialog');
      expect(gateway.calls.some((c) => c.url.startsWith('/api/clippers/'))).toBe(false);
      await user.click(hire);
      const dialog = await screen.findByRole('dialog', { name: 'Hire Clipper' });
      expect(await within(dialog).findByText('Name 1')).toBeVisible();
      expect(gateway.calls.map((c) => c.url)).toContain('/api/clippers/user-1/profile');
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(hire).toHaveFocus();
    });
  });

  describe('likes', () => {
    it('asks a visitor to sign in, with a link to /login, and calls nothing', async () => {
      const { user, gateway } = setup(onePage(clips(1, 1)));
      const like = await screen.findByRole('button', { name: 'Like' });
      await waitFor(() => expect(like).toBeEnabled());
      await user.click(like);
      expect(await screen.findByText('Sign in to like clips')).toBeVisible();
      const login = screen.getByRole('link', { name: 'Log in' });
      expect(login).toHaveAttribute('href', '/login');
      expect(gateway.writes()).toEqual([]);
      expect(screen.queryByText('Failed to like video')).toBeNull();
      await user.click(login);
      expect(await screen.findByText('elsewhere')).toBeVisible();
      expect(screen.queryByText('Sign in to like clips')).toBeNull();
    });

    it('likes and unlikes, showing the server’s count, without reading the feed again', async () => {
      const { user, gateway } = setup(onePage([clip(1, { likeCount: 4 })]), { json: ME }, (call) =>
        call.method === 'POST'
          ? { json: { likeCount: 5, likedByCurrentUser: true } }
          : { json: { likeCount: 4, likedByCurrentUser: false } },
      );
      const like = await screen.findByRole('button', { name: 'Like' });
      await waitFor(() => expect(like).toBeEnabled());
      expect(like).toHaveAttribute('aria-pressed', 'false');
      await user.click(like);
      await waitFor(() => expect(like).toHaveAttribute('aria-pressed', 'true'));
      expect(screen.getByTestId('like-count')).toHaveTextContent('5 likes');
      await user.click(like);
      await waitFor(() => expect(like).toHaveAttribute('aria-pressed', 'false'));
      expect(screen.getByTestId('like-count')).toHaveTextContent('4 likes');
      expect(gateway.writes()).toEqual([
        { method: 'POST', url: '/api/feed/clips/clip-1/like', body: undefined },
        { method: 'DELETE', url: '/api/feed/clips/clip-1/like', body: undefined },
      ]);
      expect(gateway.calls.filter((c) => c.url.startsWith('/api/feed/clips?'))).toHaveLength(1);
    });

    it('toasts Failed to like video / Failed to unlike video with the server’s message', async () => {
      const { user } = setup(onePage([clip(1), clip(2, { likedByCurrentUser: true, likeCount: 1 })]), { json: ME }, (call) =>
        call.method === 'POST' ? { status: 503, text: 'Service temporarily unavailable' } : { status: 404, text: 'Clip not found' },
      );
      const [first, second] = await screen.findAllByRole('article');
      const like = within(first!).getByRole('button', { name: 'Like' });
      await waitFor(() => expect(like).toBeEnabled());
      await user.click(like);
      expect(await screen.findByText('Failed to like video')).toBeVisible();
      expect(screen.getByText('503: Service temporarily unavailable')).toBeVisible();
      expect(like).toHaveAttribute('aria-pressed', 'false');
      // The second card is drawn in full once the first poster is on screen.
      const unlike = await within(second!).findByRole('button', { name: 'Like' });
      expect(unlike).toHaveAttribute('aria-pressed', 'true');
      await user.click(unlike);
      expect(await screen.findByText('Failed to unlike video')).toBeVisible();
      expect(screen.getByText('404: Clip not found')).toBeVisible();
      expect(within(second!).getByTestId('like-count')).toHaveTextContent('1 like');
    });
  });

  describe('card variants', () => {
    const lazyMargins = () => [...FakeObserver.live].map((o) => o.options.rootMargin).filter(Boolean);

    it('a phone gets the mobile card and a 200 px look-ahead; no full-screen button', async () => {
      setup(onePage(clips(1, 2)));
      await screen.findAllByRole('article');
      expect(cards()[0]).toHaveClass('clipit-feed-card--mobile');
      expect(lazyMargins()).toEqual(['200px 0px']);
      expect([...FakeObserver.live].find((o) => o.options.threshold === 0.5)).toBeDefined();
      expect(screen.queryByRole('button', { name: 'Full screen' })).toBeNull();
    });

    it('medium and desktop screens get the full-height snap card (300 and 500 px); full screen the blurred one (600 px)', async () => {
      setWidth(800);
      Object.defineProperty(document, 'fullscreenEnabled', { value: true, configurable: true });
      const request = jest.fn(() => Promise.resolve());
      Object.defineProperty(HTMLElement.prototype, 'requestFullscreen', { value: request, configurable: true });
      const { user } = setup(onePage(clips(1, 2)));
      await screen.findAllByRole('article');
      expect(cards()[0]).toHaveClass('clipit-feed-card--snap');
      expect(lazyMargins()).toEqual(['300px 0px']);

      setWidth(1280);
      act(() => void window.dispatchEvent(new Event('resize')));
      expect(lazyMargins()).toEqual(['500px 0px']);
      expect(document.querySelector('.clipit-feed-card__backdrop')).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Full screen' }));
      expect(request).toHaveBeenCalledTimes(1);
      const feed = document.querySelector('.clipit-feed')!;
      Object.defineProperty(document, 'fullscreenElement', { value: feed, configurable: true });
      act(() => void document.dispatchEvent(new Event('fullscreenchange')));
      expect(cards()[0]).toHaveClass('clipit-feed-card--fullscreen');
      expect(lazyMargins()).toEqual(['600px 0px']);
      expect(cards()[0]!.querySelector('.clipit-feed-card__backdrop')).toHaveAttribute('src', '/media/videos/v1/poster.jpg');
      expect(screen.getByRole('button', { name: 'Exit full screen' })).toBeVisible();
    });
  });
});
