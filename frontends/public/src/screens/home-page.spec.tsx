import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient, type ApiAnswer } from '@clipit/web-api';
import { fakeGateway, type Handler } from '@clipit/web-testing';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation, type Location } from '@clipit/router';
import { DEFAULT_LINKS } from '@clipit/frontend-contracts';
import HomePage, { formatMultiplier } from './home-page.js';

type Clip = ApiAnswer<'/api/feed/clips', 'get'>['submissions'][number];
type Clippers = ApiAnswer<'/api/featured-clippers', 'get'>;
type Streamers = ApiAnswer<'/api/top-streamers', 'get'>;

const clip = (n: number): Clip => ({
  id: `clip-${n}`,
  name: `Clip number ${n}`,
  description: null,
  url: `https://x.com/author${n}/status/10${n}`,
  authorHandle: `author${n}`,
  videoUrl: `/media/clips/${n}.mp4`,
  videoDuration: 12,
  videoAspectRatio: '9:16',
  videoThumbnailUrl: `/media/clips/${n}.jpg`,
  hasVideo: 'true',
  views: 2500,
  likes: 40,
  retweets: 3,
  publishedAt: '2026-11-20T10:00:00.000Z',
  userId: `user-${n}`,
  tokenId: null,
  muxPlaybackId: null,
  likeCount: 0,
  likedByCurrentUser: false,
  user: null,
  clipperProfile: null,
  token: null,
});

const CLIPPERS: Clippers = [
  {
    userId: 'u-1',
    displayName: 'Clip King',
    twitterUsername: 'clipking',
    profileImageUrl: null,
    bannerImageUrl: null,
    totalClips: 14,
    approvedClips: 12,
    totalViews: 1_250_000,
    totalLikes: 900,
    clipPoints: 4200,
  },
  {
    userId: 'u-2',
    displayName: null,
    twitterUsername: 'meme_lord',
    profileImageUrl: '/media/avatars/u-2.png',
    bannerImageUrl: null,
    totalClips: 3,
    approvedClips: 2,
    totalViews: 800,
    totalLikes: 5,
  },
];
const streamer = (n: number, multiplier: number, followerCount = 10): Streamers[number] => ({
  id: `s-${n}`,
  displayName: `Streamer ${n}`,
  twitterUsername: `streamer${n}`,
  profileImageUrl: null,
  bannerImageUrl: null,
  followerCount,
  totalClips: n,
  multiplier,
});
const STREAMERS: Streamers = [
  streamer(1, 1.5, 12_400),
  streamer(2, 1),
  streamer(3, 1.25),
  streamer(4, 2),
  streamer(5, 1.1),
  streamer(6, 1),
];

const answers = (over: Partial<Record<string, () => ReturnType<Handler>>> = {}): Handler => {
  const table: Record<string, () => ReturnType<Handler>> = {
    '/api/feed/clips?limit=5': () => ({ json: { submissions: [1, 2, 3, 4, 5, 6].map(clip), nextCursor: null } }),
    '/api/featured-clippers': () => ({ json: CLIPPERS }),
    '/api/top-streamers': () => ({ json: STREAMERS }),
    ...over,
  };
  return (call) => table[call.url]?.() ?? { status: 404, text: 'No such route' };
};

/** A promise that never settles: the call stays pending. */
const never = () => new Promise<never>(() => undefined);

function setup(handler: Handler = answers()) {
  const gateway = fakeGateway(handler);
  const queryClient: QueryClient = createQueryClient();
  const seen: { location?: Location } = {};
  function Probe() {
    seen.location = useLocation();
    return null;
  }
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/']}>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
          <Probe />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { gateway, queryClient, path: () => seen.location?.pathname, user: userEvent.setup() };
}

beforeEach(() => {
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.restoreAllMocks();
  document.head.querySelectorAll('meta[name="clipit:links"]').forEach((m) => m.remove());
});

const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section')!;

describe('/ (home)', () => {
  it('paints the hero before any data: one h1, the tagline, Buy $CLIP Token in a new tab and ClipTok', () => {
    setup(() => never());
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'CLIP • SHARE • EARN' })).toBeVisible();
    expect(screen.getByRole('img', { name: 'CLIP IT' })).toHaveAttribute('src', '/icon.png');
    expect(screen.getByText(/earn \$CLIP for every approved clip/)).toBeVisible();
    const buy = screen.getByRole('link', { name: 'Buy $CLIP Token (opens in a new tab)' });
    expect(buy).toHaveAttribute('href', DEFAULT_LINKS.buy);
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'ClipTok' })).toHaveAttribute('href', '/feed');
  });

  it('Buy $CLIP Token goes where the header’s Buy $CLIP goes (the links the shell’s build wrote)', () => {
    const meta = document.createElement('meta');
    meta.name = 'clipit:links';
    meta.content = JSON.stringify({ buy: 'https://pump.fun/coin/CLIPtoken', x: 'https://x.com/clipit' });
    document.head.append(meta);
    setup(() => never());
    expect(screen.getByRole('link', { name: 'Buy $CLIP Token (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://pump.fun/coin/CLIPtoken',
    );
  });

  it('shows skeletons while loading: the carousel box, the clipper cards and 5 streamer cards', () => {
    setup(() => never());
    expect(screen.getByTestId('carousel-skeleton')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading clips');
    expect(screen.getAllByTestId('clipper-skeleton').length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('streamer-skeleton')).toHaveLength(5);
    expect(screen.queryByText('No streamers found')).toBeNull();
  });

  it('reads 5 preview clips, the featured clippers and the top streamers, each from its own route', async () => {
    const { gateway, queryClient } = setup();
    await screen.findByRole('region', { name: 'Live on Demand clips' });
    await screen.findAllByTestId('streamer-row');
    expect(gateway.calls.map((c) => c.url).sort()).toEqual(['/api/featured-clippers', '/api/feed/clips?limit=5', '/api/top-streamers']);
    // Only 5 slides even if more came back.
    expect(screen.getAllByRole('group', { hidden: true })).toHaveLength(5);
    // The add-clip dialog's invalidation of the feed reaches the preview.
    await queryClient.invalidateQueries({ queryKey: ['/api/feed/clips'] });
    expect(gateway.calls.filter((c) => c.url === '/api/feed/clips?limit=5')).toHaveLength(2);
  });

  it('Live on Demand: the carousel, Watch Full Video to /feed and Scroll the Feed going to /feed', async () => {
    const { user, path } = setup();
    const live = section('Live on Demand');
    await within(live).findByRole('region', { name: 'Live on Demand clips' });
    expect(within(live).getByRole('button', { name: 'Show clip 1 of 5' })).toHaveAttribute('aria-current', 'true');
    expect(within(live).getByRole('link', { name: 'Watch Full Video' })).toHaveAttribute('href', '/feed');
    await user.click(within(live).getByRole('button', { name: 'Scroll the Feed' }));
    expect(path()).toBe('/feed');
  });

  it('Goated Clippers: cards linking to each profile with abbreviated figures, and Discover Talent', async () => {
    setup();
    const cards = await screen.findAllByTestId('clipper-card');
    expect(cards.map((c) => c.getAttribute('href'))).toEqual(['/clipper/u-1', '/clipper/u-2']);
    expect(cards[0]).toHaveTextContent('Clip King');
    expect(cards[0]).toHaveTextContent('@clipking');
    expect(cards[0]).toHaveTextContent('12 clips');
    expect(cards[0]).toHaveTextContent('1.3M views');
    expect(cards[0]).toHaveTextContent('4.2K points');
    // No display name: the handle names them; no points reported yet: a dash.
    expect(cards[1]).toHaveTextContent('meme_lord');
    expect(cards[1]).toHaveTextContent('— points');
    expect(within(section('Goated Clippers')).getByRole('link', { name: 'Discover Talent' })).toHaveAttribute('href', '/discover');
  });

  it('Top Streamers: the first 5, linking to each profile, with the multiplier as Nx, and View All', async () => {
    setup();
    const rows = await screen.findAllByTestId('streamer-row');
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r.getAttribute('href'))).toEqual([
      '/clipper/s-1',
      '/clipper/s-2',
      '/clipper/s-3',
      '/clipper/s-4',
      '/clipper/s-5',
    ]);
    expect(rows.map((r) => r.querySelector('.clipit-home-streamer__multiplier')?.textContent)).toEqual([
      'Multiplier 1.5x',
      'Multiplier 1x',
      'Multiplier 1.25x',
      'Multiplier 2x',
      'Multiplier 1.1x',
    ]);
    expect(rows[0]).toHaveTextContent('Streamer 1');
    expect(rows[0]).toHaveTextContent('12.4K followers');
    expect(within(section('Top Streamers')).getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/discover?tab=streamers');
  });

  it('prompts to sign up and to create a streamer profile at /login, then the vision and How It Works', async () => {
    setup();
    await screen.findAllByTestId('streamer-row');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Create Streamer Profile' })).toHaveAttribute('href', '/login');
    expect(section('Our Vision')).toHaveTextContent(/community of clippers/);
    const how = section('How It Works');
    expect(
      within(how)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Clip', 'Share', 'Earn']);
    expect(
      within(within(how).getByRole('list', { name: 'How value flows' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Clips', 'Views', 'Growth', 'Fees', 'Rewards']);
    // Headings in order: the h1, then h2s, with h3s only under How It Works.
    const levels = screen.getAllByRole('heading').map((h) => Number(h.tagName[1]));
    expect(levels[0]).toBe(1);
    levels.forEach((level, i) => expect(level - (levels[i - 1] ?? 0)).toBeLessThanOrEqual(1));
  });

  it('empty: no clips yet (with a way to submit one), no clippers yet and No streamers found', async () => {
    setup(
      answers({
        '/api/feed/clips?limit=5': () => ({ json: { submissions: [], nextCursor: null } }),
        '/api/featured-clippers': () => ({ json: [] }),
        '/api/top-streamers': () => ({ json: [] }),
      }),
    );
    expect(await screen.findByText('No streamers found')).toBeVisible();
    expect(await screen.findByText('No clips yet')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Submit a Clip' })).toHaveAttribute('href', '/submit');
    expect(screen.queryByRole('region', { name: 'Live on Demand clips' })).toBeNull();
    expect(screen.getByText(/No clippers yet/)).toBeVisible();
    expect(screen.queryAllByTestId('streamer-skeleton')).toHaveLength(0);
  });

  it("toasts 'Failed to fetch clips' when the preview fails, and the rest of the page carries on", async () => {
    setup(answers({ '/api/feed/clips?limit=5': () => ({ status: 503, text: 'Service temporarily unavailable' }) }));
    expect(await screen.findByText('Failed to fetch clips')).toBeVisible();
    expect(within(screen.getByRole('alert')).getByText('503: Service temporarily unavailable')).toBeVisible();
    expect(screen.getByText('Clips could not be loaded right now.')).toBeVisible();
    await waitFor(() => expect(screen.getAllByTestId('streamer-row')).toHaveLength(5));
  });

  it('says so when the lists fail', async () => {
    setup(
      answers({
        '/api/featured-clippers': () => ({ status: 500, text: 'Something went wrong. Please try again.' }),
        '/api/top-streamers': () => ({ status: 500, text: 'Something went wrong. Please try again.' }),
      }),
    );
    expect(await screen.findByText('Failed to load clippers. Please try again.')).toBeVisible();
    expect(await screen.findByText('Failed to load streamers. Please try again.')).toBeVisible();
  });
});

describe('formatMultiplier', () => {
  it('shows the multiplier as Nx with only the decimals it needs', () => {
    expect([1, 1.0, 1.5, 1.25, 2, 1.1, 1.999].map(formatMultiplier)).toEqual(['1x', '1x', '1.5x', '1.25x', '2x', '1.1x', '2x']);
  });
});
