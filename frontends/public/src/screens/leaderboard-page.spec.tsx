import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import type { LeaderboardPost, LeaderboardStats, LeaderboardUser } from '../lib/leaderboard-posts.js';
import LeaderboardPage from './leaderboard-page.js';

const author = (twitterUsername: string | null, displayName: string | null = null) => ({
  displayName,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  twitterUsername,
  currentTier: 0,
});

let seq = 0;
function post(name: string, extra: Partial<LeaderboardPost> = {}): LeaderboardPost {
  seq += 1;
  return {
    id: `p${seq}`,
    externalId: `${seq}`,
    name,
    description: null,
    videoUrl: null,
    videoThumbnailUrl: null,
    muxPlaybackId: null,
    url: `https://x.com/clip_king/status/${seq}`,
    authorHandle: 'clip_king',
    likes: 0,
    views: 0,
    retweets: 0,
    replies: 0,
    isProcessing: false,
    publishedAt: null,
    userId: 'u1',
    user: author('clip_king', 'Clip King'),
    clipperProfile: null,
    token: null,
    hasVideo: 'false',
    ...extra,
  };
}
const video = (name: string, views: number, extra: Partial<LeaderboardPost> = {}) =>
  post(name, { hasVideo: 'true', videoUrl: `/media/${name}.mp4`, videoThumbnailUrl: `/media/${name}.jpg`, views, ...extra });

const USERS: LeaderboardUser[] = [
  { userId: 'u1', user: author('clip_king'), totalViews: 1500, mindshare: 50 },
  { userId: 'u2', user: author(null, 'No Handle'), totalViews: 1000, mindshare: 33.33 },
  { userId: 'u3', user: author('third_one'), totalViews: 500, mindshare: 16.67 },
  { userId: 'u4', user: author('fourth'), totalViews: 0, mindshare: 0 },
];
const STATS: LeaderboardStats = { totalPosts: 1234, activeUsers: 4, totalViews: 2_500_000 };

type Answer = Reply | Promise<Reply> | (() => Reply);
type Routes = { posts?: Answer; users?: Answer; stats?: Answer; oembed?: (call: Call) => Reply };
const never = new Promise<Reply>(() => undefined);
const answer = (a: Answer | undefined, fallback: Reply) => (typeof a === 'function' ? a() : (a ?? fallback));

function setup(routes: Routes = {}) {
  const gateway = fakeGateway((call) => {
    const path = call.url.split('?')[0];
    if (path === '/api/leaderboard/posts') return answer(routes.posts, { json: [] });
    if (path === '/api/leaderboard/users') return answer(routes.users, { json: USERS });
    if (path === '/api/leaderboard/stats') return answer(routes.stats, { json: STATS });
    if (path === '/api/twitter/oembed' && routes.oembed) return routes.oembed(call);
    return { status: 404, text: 'Cannot GET' };
  });
  const rendered = renderScreen(<LeaderboardPage />, '/leaderboard');
  return { gateway, ...rendered };
}
const section = (name: string) => screen.getByRole('region', { name });
const cards = () => screen.getAllByTestId('leaderboard-post');
const callsTo = (calls: Call[], path: string) => calls.filter((c) => c.url.split('?')[0] === path);

afterEach(() => {
  jest.useRealTimers();
});

describe('/leaderboard', () => {
  it('while loading: the heading, Submit Your Post, 3 podium places and 6 post skeletons', async () => {
    const { gateway } = setup({ posts: never, users: never, stats: never });
    expect(screen.getByRole('heading', { level: 1, name: 'X Leaderboard' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Submit Your Post' })).toHaveAttribute('href', '/submit');
    expect(within(section('TOP CREATORS')).getAllByTestId('podium-skeleton')).toHaveLength(3);
    expect(within(section('Top Viral Posts')).getAllByTestId('leaderboard-post-skeleton')).toHaveLength(6);
    expect(screen.getByText('Loading posts')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Competition Level: High' })).toHaveAttribute('aria-valuenow', '85');
    expect(callsTo(gateway.calls, '/api/leaderboard/posts')).toHaveLength(1);
    expect(callsTo(gateway.calls, '/api/leaderboard/users')).toHaveLength(1);
    expect(callsTo(gateway.calls, '/api/leaderboard/stats')).toHaveLength(1);
  });

  it('the podium: ranks 1-3 in the gateway’s order, linking to profiles, with @handle or Anonymous, views and mindshare', async () => {
    setup();
    const podium = section('TOP CREATORS');
    const places = await within(podium).findAllByRole('link');
    expect(places.map((a) => a.getAttribute('href'))).toEqual(['/clipper/u1', '/clipper/u2', '/clipper/u3']);
    expect(places[0]).toHaveAccessibleName('Rank #1 @clip_king 1.5K views 50% mindshare');
    expect(places[1]).toHaveAccessibleName('Rank #2 Anonymous 1.0K views 33.33% mindshare');
    expect(places[2]).toHaveAccessibleName('Rank #3 @third_one 500 views 16.67% mindshare');
    expect(within(podium).queryByText('@fourth')).toBeNull();
  });

  it('says when there are not enough creators for a podium', async () => {
    setup({ users: { json: USERS.slice(0, 2) } });
    expect(await screen.findByText('Not enough creators yet. Be one of the first!')).toBeVisible();
    expect(within(section('TOP CREATORS')).queryAllByRole('link')).toHaveLength(0);
  });

  it('the stats card: the gateway’s figures, abbreviated, and the fixed competition bar', async () => {
    setup();
    const stats = section('Leaderboard Stats');
    const figure = (label: string) => within(stats).getByText(label).nextElementSibling;
    expect(await within(stats).findByText('1.2K')).toBeVisible();
    expect(figure('Total Posts')).toHaveTextContent('1.2K');
    expect(figure('Active Users')).toHaveTextContent('4');
    expect(figure('Total Views')).toHaveTextContent('2.5M');
    expect(within(stats).getByText(/Competition Level:/)).toHaveTextContent('Competition Level: High');
    expect(within(stats).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '85');
  });

  it('lists posts with a video first, then by views, whatever order the gateway sent, and highlights the top 3', async () => {
    const posts = [
      post('Plain big', { views: 9000 }),
      video('Video small', 10),
      post('Plain small', { views: 5 }),
      video('Video big', 2000),
      post('Plain mid', { views: 300 }),
    ];
    setup({ posts: { json: posts } });
    await screen.findByText('Video big');
    expect(cards().map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual(
      ['Video big', 'Video small', 'Plain big', 'Plain mid', 'Plain small'].map((name) => `${name} (new tab)`),
    );
    expect(cards().map((card) => card.classList.contains('clipit-leaderboard-post--top'))).toEqual([true, true, true, false, false]);
    expect(cards().map((card) => within(card).getByText(/^Rank/).parentElement?.textContent)).toEqual([
      'Rank #1',
      'Rank #2',
      'Rank #3',
      'Rank #4',
      'Rank #5',
    ]);
    for (const card of cards()) expect(within(card).getByText('Live')).toBeVisible();
  });

  it('a post card: author link to the profile, the post in a new tab, abbreviated counts', async () => {
    setup({
      posts: {
        json: [video('Big play', 12_345, { likes: 1500, retweets: 42, replies: 1_000_000, userId: 'u9', user: author('zed', 'Zed Z') })],
      },
    });
    const card = (await screen.findAllByTestId('leaderboard-post'))[0]!;
    expect(within(card).getByRole('link', { name: 'Zed Z' })).toHaveAttribute('href', '/clipper/u9');
    const link = within(card).getByRole('link', { name: 'Big play (new tab)' });
    expect(link).toHaveAttribute('href', expect.stringMatching(/^https:\/\/x\.com\/clip_king\/status\/\d+$/) as unknown as string);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const count = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(count('Views')).toHaveTextContent('12.3K');
    expect(count('Likes')).toHaveTextContent('1.5K');
    expect(count('Retweets')).toHaveTextContent('42');
    expect(count('Replies')).toHaveTextContent('1.0M');
  });

  it('an uploaded video: HD badge, a link out, and it plays on a click (no preload, its thumbnail as poster)', async () => {
    const { gateway } = setup({ posts: { json: [video('Big play', 10)] } });
    const card = (await screen.findAllByTestId('leaderboard-post'))[0]!;
    expect(within(card).getByText('HD')).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Open Big play on X (new tab)' })).toHaveAttribute('target', '_blank');
    expect(card.querySelector('video')).toBeNull();
    const thumbnail = card.querySelector('img.clipit-leaderboard-preview__media');
    expect(thumbnail).toHaveAttribute('src', '/media/Big play.jpg');
    expect(thumbnail).toHaveAttribute('loading', 'lazy');
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Play Big play' }));
    const player = card.querySelector('video');
    expect(player).toHaveAttribute('src', '/media/Big play.mp4');
    expect(player).toHaveAttribute('poster', '/media/Big play.jpg');
    expect(player).toHaveAttribute('preload', 'none');
    expect(player).toHaveAttribute('controls');
    expect(within(card).queryByText('View on X')).toBeNull();
    // A post with its own video needs no embed.
    expect(callsTo(gateway.calls, '/api/twitter/oembed')).toEqual([]);
  });

  it('without a video: the embed thumbnail links out; a failed upload says so; else View on X', async () => {
    const withThumb = post('Has embed');
    const failed = post('Failed upload', { isProcessing: true });
    const plain = post('Just a post');
    const { gateway } = setup({
      posts: { json: [withThumb, failed, plain] },
      oembed: (call) =>
        call.url === `/api/twitter/oembed?url=${encodeURIComponent(withThumb.url)}`
          ? { json: { html: '<blockquote><img src="https://pbs.twimg.com/media/abc.jpg"></blockquote>' } }
          : { json: { html: '<blockquote><p>no picture</p></blockquote>' } },
    });
    const thumb = await screen.findByRole('img', { name: 'Has embed on X' });
    expect(thumb).toHaveAttribute('src', 'https://pbs.twimg.com/media/abc.jpg');
    expect(thumb.closest('a')).toHaveAttribute('href', withThumb.url);
    expect(thumb.closest('a')).toHaveAttribute('target', '_blank');
    const [, second, third] = cards();
    expect(within(second!).getByText('Video upload failed')).toBeVisible();
    expect(within(second!).getByText('Please re-upload')).toBeVisible();
    expect(within(third!).getByRole('link', { name: 'View on X (new tab)' })).toHaveAttribute('href', plain.url);
    expect(callsTo(gateway.calls, '/api/twitter/oembed')).toHaveLength(3);
    expect(screen.queryByText('HD')).toBeNull();
  });

  it('a failing embed call is quiet: asked once per post, never retried, no toast, View on X stays', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { gateway } = setup({ posts: { json: [post('One'), post('Two')] } });
      await screen.findByText('One');
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      expect(callsTo(gateway.calls, '/api/twitter/oembed')).toHaveLength(2);
      expect(screen.getAllByRole('link', { name: 'View on X (new tab)' })).toHaveLength(2);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it('no posts: No posts yet! with a Submit Your Post button', async () => {
    setup({ posts: { json: [] } });
    expect(await screen.findByRole('heading', { name: 'No posts yet!' })).toBeVisible();
    expect(screen.getByText('Be the first to submit a viral Twitter post and claim the top spot.')).toBeVisible();
    const submits = within(section('Top Viral Posts')).getAllByRole('link', { name: 'Submit Your Post' });
    expect(submits).toHaveLength(1);
    expect(submits[0]).toHaveAttribute('href', '/submit');
  });

  it('posts and creators: retried 3 times with backoff (1, 2, 4 s), then an error with Try Again; fresh for 30 s', async () => {
    jest.useFakeTimers();
    let up = false;
    const down: Reply = { status: 503, text: 'Service temporarily unavailable' };
    const { gateway, queryClient } = setup({ posts: () => (up ? { json: [post('Back again')] } : down), users: () => down });
    const attempts = () => [
      callsTo(gateway.calls, '/api/leaderboard/posts').length,
      callsTo(gateway.calls, '/api/leaderboard/users').length,
    ];
    await act(() => jest.advanceTimersByTimeAsync(999));
    expect(attempts()).toEqual([1, 1]);
    await act(() => jest.advanceTimersByTimeAsync(1 + 2000));
    expect(attempts()).toEqual([3, 3]);
    await act(() => jest.advanceTimersByTimeAsync(4000));
    expect(attempts()).toEqual([4, 4]);
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(attempts()).toEqual([4, 4]);
    expect(within(section('TOP CREATORS')).getByRole('alert')).toHaveTextContent('Failed to load creators. Please try again.');
    expect(within(section('Top Viral Posts')).getByRole('alert')).toHaveTextContent('Failed to load posts. Please try again.');
    for (const key of ['/api/leaderboard/posts', '/api/leaderboard/users']) {
      expect(queryClient.getQueryCache().find({ queryKey: [key] })?.options).toMatchObject({
        retry: 3,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      });
    }

    up = true;
    await act(async () => {
      within(section('Top Viral Posts')).getByRole('button', { name: 'Try Again' }).click();
      await jest.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByText('Back again')).toBeVisible();
    expect(attempts()).toEqual([5, 4]);
  });
});
