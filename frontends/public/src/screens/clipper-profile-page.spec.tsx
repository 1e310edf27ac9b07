import { describe, expect, it } from '@jest/globals';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient, type ApiAnswer } from '@clipit/web-api';
import { fakeGateway, type Handler } from '@clipit/web-testing';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from '@clipit/router';
import ClipperProfilePage, { durationLabel } from './clipper-profile-page.js';

type Profile = ApiAnswer<'/api/clipper/{userId}', 'get'>;
type Clip = Profile['submissions'][number];

const clip = (id: string, extra: Partial<Clip> = {}): Clip => ({
  id,
  name: `Clip ${id}`,
  status: 'approved',
  videoUrl: `/media/videos/${id}.mp4`,
  videoDuration: 7,
  videoThumbnailUrl: null,
  views: 0,
  likes: 0,
  retweets: 0,
  url: `https://x.com/clip_king/status/${id}`,
  ...extra,
});

const profile = (extra: { user?: Partial<Profile['user']>; submissions?: Clip[]; nextCursor?: string | null } = {}): Profile => ({
  user: {
    id: 'u-1',
    role: 'clipper',
    displayName: 'Clip King',
    firstName: 'Ada',
    lastName: 'Lovelace',
    twitterUsername: 'clip_king',
    profileImageUrl: null,
    bannerImageUrl: null,
    isLive: 'false',
    currentTier: 1,
    ...extra.user,
  },
  stats: { totalClips: 5, approvedClips: 3, totalViews: 12_500, totalLikes: 980, avgViews: 4166.7, followerCount: 1 },
  submissions: extra.submissions ?? [
    clip('101', { name: 'Big play', videoDuration: 65.4, videoThumbnailUrl: '/media/thumbs/101.jpg', views: 1500, likes: 12, retweets: 3 }),
    clip('102', { name: 'Still waiting', status: 'pending' }),
    clip('103', { name: 'No length known', videoDuration: null }),
  ],
  nextCursor: extra.nextCursor ?? null,
});

/** `me`: the signed-in user's id (GET /api/user/me), or signed out. */
function setup(handler: Handler, userId = 'u-1', me: string | null = null) {
  const gateway = fakeGateway((call) => {
    if (call.url !== '/api/user/me') return handler(call);
    return me === null
      ? { status: 401, text: 'Not signed in' }
      : { json: { ...profile().user, id: me, email: 'me@example.com', walletAddress: null } };
  });
  // The profile route with its parameter (renderScreen's route is the URL itself), and where its links lead.
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={[`/clipper/${userId}`]}>
          <Routes>
            <Route path="/clipper/:userId" element={<ClipperProfilePage />} />
            <Route path="/discover" element={<p>discover page</p>} />
            <Route path="/login" element={<p>login page</p>} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { gateway, user: userEvent.setup() };
}

const statsShown = () =>
  Object.fromEntries(
    within(screen.getByRole('article'))
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]),
  );

describe('/clipper/:userId', () => {
  it('shows a skeleton, then the banner, name, handle, stats and only the approved videos', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { gateway } = setup(async () => {
      await answered;
      return { json: profile() };
    });
    expect(screen.getByTestId('profile-skeleton')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Loading profile');
    answer();

    expect(await screen.findByRole('heading', { level: 1, name: 'Clip King' })).toBeVisible();
    expect(screen.queryByTestId('profile-skeleton')).toBeNull();
    expect(gateway.calls.map((c) => c.url)).toContain('/api/clipper/u-1');
    expect(screen.getByText('@clip_king')).toBeVisible();
    expect(document.querySelector('.clipit-profile-banner--gradient')).not.toBeNull();
    expect(statsShown()).toEqual({ 'Total Clips': '5', Approved: '3', 'Total Views': '12.5K', 'Total Likes': '980', 'Avg Views': '4.2K' });
    // A clipper: no follow button, no follower count.
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.queryByText(/follower/)).toBeNull();

    const videos = screen.getByRole('heading', { level: 2, name: 'Approved Videos' }).closest('section')!;
    const cards = within(videos).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual(['Big play', 'No length known']);
    expect(within(videos).queryByText('Still waiting')).toBeNull();

    const [big, noLength] = cards as [HTMLElement, HTMLElement];
    const video = big.querySelector('video')!;
    expect(video).toHaveAttribute('src', '/media/videos/101.mp4');
    expect(video).toHaveAttribute('preload', 'none');
    expect(video).toHaveAttribute('poster', '/media/thumbs/101.jpg');
    expect(video).toHaveAttribute('controls');
    expect(video).not.toHaveAttribute('autoplay');
    expect(big).toHaveTextContent('Duration 1:05');
    expect(big).toHaveTextContent('1.5K views');
    expect(big).toHaveTextContent('12 likes');
    expect(big).toHaveTextContent('3 retweets');
    const twitter = within(big).getByRole('link', { name: 'View on Twitter' });
    expect(twitter).toHaveAttribute('href', 'https://x.com/clip_king/status/101');
    expect(twitter).toHaveAttribute('target', '_blank');
    expect(twitter).toHaveAttribute('rel', 'noopener noreferrer');
    expect(noLength.querySelector('video')).not.toHaveAttribute('poster');
    expect(noLength).not.toHaveTextContent('Duration');
  });

  it('names a person by first and last name without a display name, else by handle; shows the banner and avatar images', async () => {
    setup(() => ({
      json: profile({ user: { displayName: ' ', bannerImageUrl: '/media/banners/u-1.jpg', profileImageUrl: '/media/avatars/u-1.png' } }),
    }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeVisible();
    const images = Array.from(document.querySelectorAll('article img'), (img) => img.getAttribute('src'));
    expect(images).toEqual(['/media/banners/u-1.jpg', '/media/avatars/u-1.png']);
  });

  it('falls back to the handle for the name and shows the initial without a picture', async () => {
    setup(() => ({ json: profile({ user: { displayName: null, firstName: null, lastName: null } }) }));
    expect(await screen.findByRole('heading', { level: 1, name: 'clip_king' })).toBeVisible();
    expect(document.querySelector('.clipit-profile-avatar')).toHaveTextContent('C');
  });

  it('says No approved videos yet when there are none', async () => {
    setup(() => ({ json: profile({ submissions: [clip('9', { status: 'rejected' })] }) }));
    expect(await screen.findByText('No approved videos yet')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'View on Twitter' })).toBeNull();
  });

  it('shows Hire Clipper on a gold clipper’s profile only, and it opens the hire dialog for them', async () => {
    const { user, gateway } = setup((call) =>
      call.url === '/api/clippers/u-1/profile'
        ? { status: 404, text: 'Clipper not found' }
        : { json: profile({ user: { currentTier: 3 } }) },
    );
    await user.click(await screen.findByRole('button', { name: 'Hire Clipper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hire Clipper' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Clipper not found');
    expect(gateway.calls.map((c) => c.url)).toContain('/api/clippers/u-1/profile');
  });

  it('shows a gold clipper’s rating from their hires beside Hire Clipper (ADR 0040)', async () => {
    setup((call) =>
      call.url === '/api/clippers/u-1/profile'
        ? { json: { userId: 'u-1', averageRating: 4.5, totalReviews: 2 } }
        : { json: profile({ user: { currentTier: 3 } }) },
    );
    expect(await screen.findByText('4.5 (2 reviews)')).toBeVisible();
    expect(screen.getByText('4.5 (2 reviews)').parentElement).toHaveTextContent('Rating 4.5 (2 reviews)');
  });

  it('shows no Hire Clipper below gold', async () => {
    setup(() => ({ json: profile({ user: { currentTier: 2 } }) }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clip King' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Hire Clipper' })).toBeNull();
  });

  it('shows no Hire Clipper on a gold streamer’s profile', async () => {
    setup(() => ({ json: profile({ user: { role: 'streamer', currentTier: 4 } }) }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clip King' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Hire Clipper' })).toBeNull();
  });

  it('a streamer’s profile shows the follower count and the Follow button (signed out: to /login)', async () => {
    const { user } = setup(() => ({ json: profile({ user: { role: 'streamer' } }) }));
    expect(await screen.findByText('follower')).toBeVisible();
    expect(screen.getByText('follower').parentElement).toHaveTextContent('1 follower');
    const follow = screen.getByRole('button', { name: 'Follow' });
    await waitFor(() => expect(follow).toBeEnabled());
    await user.click(follow);
    expect(await screen.findByText('login page')).toBeVisible();
  });

  it('says Clipper not found for an unknown id, with a way back to Discover', async () => {
    const { user } = setup(() => ({ status: 404, text: 'Clipper not found' }), 'nobody');
    expect(await screen.findByRole('heading', { level: 1, name: 'Clipper not found' })).toBeVisible();
    const back = screen.getByRole('link', { name: 'Back to Discover' });
    expect(back).toHaveAttribute('href', '/discover');
    await user.click(back);
    expect(await screen.findByText('discover page')).toBeVisible();
  });

  it('shows another failure with its message and a Retry', async () => {
    let fail = true;
    const { user } = setup(() => (fail ? { status: 503, text: 'Service temporarily unavailable' } : { json: profile() }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('503: Service temporarily unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clip King' })).toBeVisible();
  });

  it('loads the next page of videos with the cursor', async () => {
    const { gateway, user } = setup((call) =>
      call.url.includes('cursor=')
        ? { json: profile({ submissions: [clip('201', { name: 'Older one' })] }) }
        : { json: profile({ submissions: [clip('101', { name: 'Newest' })], nextCursor: 'c/2' }) },
    );
    await user.click(await screen.findByRole('button', { name: 'Load More' }));
    expect(await screen.findByText('Older one')).toBeVisible();
    expect(screen.getByText('Newest')).toBeVisible();
    expect(gateway.calls.map((c) => c.url)).toContain('/api/clipper/u-1?cursor=c%2F2');
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });
});

describe('durationLabel', () => {
  it('is m:ss of the rounded seconds', () => {
    expect([0, 3, 2.6, 59.4, 60, 65, 600.2].map(durationLabel)).toEqual(['0:00', '0:03', '0:03', '0:59', '1:00', '1:05', '10:00']);
  });

  describe('the view history of each approved video, for its owner only', () => {
    const history = (submissionId: string) => ({
      submissionId,
      views: 1500,
      likes: 12,
      retweets: 3,
      replies: 0,
      quoteCount: 0,
      bookmarkCount: 0,
      verificationCode: null,
      verifiedAt: '2026-11-25T00:00:00Z',
      lastMetricsFetch: '2026-11-26T11:00:00Z',
      publishedAt: '2026-11-24T10:00:00Z',
      points: [
        { at: '2026-11-24T12:00:00Z', views: 200, likes: 1, retweets: 0, replies: 0 },
        { at: '2026-11-26T12:00:00Z', views: 1500, likes: 12, retweets: 3, replies: 0 },
      ],
    });
    const histories = (calls: { url: string }[]) =>
      calls
        .map((c) => c.url)
        .filter((url) => url.endsWith('/metrics-history'))
        .sort();
    const answer: Handler = (call) => {
      const asked = /^\/api\/submissions\/([^/]+)\/metrics-history$/.exec(call.url);
      if (asked) return asked[1] === '103' ? { json: { ...history('103'), points: [] } } : { json: history(asked[1]!) };
      return { json: profile() };
    };

    it('shows the clipper their clips’ view history (loaded with the chart, after the page)', async () => {
      const { gateway } = setup(answer, 'u-1', 'u-1');
      await screen.findByRole('heading', { level: 1, name: 'Clip King' });
      const videos = screen.getByRole('heading', { level: 2, name: 'Approved Videos' }).closest('section')!;
      const [big, noLength] = within(videos).getAllByRole('listitem') as [HTMLElement, HTMLElement];
      expect(await within(big).findByRole('img', { name: 'Views over time: 200 on 24 Nov → 1.5K on 26 Nov' })).toBeVisible();
      expect(await within(noLength).findByText('No views recorded yet')).toBeVisible();
      // The profile shows no verification details; the dashboard does.
      expect(within(big).queryByText('Verified')).toBeNull();
      expect(histories(gateway.calls)).toEqual(['/api/submissions/101/metrics-history', '/api/submissions/103/metrics-history']);
    });

    it('shows nothing of it to a visitor or to another signed-in user', async () => {
      for (const me of [null, 'u-2']) {
        const { gateway } = setup(answer, 'u-1', me);
        expect(await screen.findByRole('heading', { level: 1, name: 'Clip King' })).toBeVisible();
        await waitFor(() => expect(gateway.calls.map((c) => c.url)).toContain('/api/user/me'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(screen.queryByRole('img', { name: /Views over time/ })).toBeNull();
        expect(histories(gateway.calls)).toEqual([]);
        cleanup();
      }
    });
  });
});
