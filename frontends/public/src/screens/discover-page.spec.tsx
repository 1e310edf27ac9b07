import { describe, expect, it } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient, type ApiAnswer } from '@clipit/web-api';
import { fakeGateway, type Handler } from '@clipit/web-testing';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation, type Location } from '@clipit/router';
import DiscoverPage from './discover-page.js';

type Creators = ApiAnswer<'/api/creators/{tab}', 'get'>;

const CLIPPERS: Creators = [
  {
    userId: 'c-1',
    twitterUsername: 'ClipKing',
    profileImageUrl: null,
    verified: true,
    followers: 12,
    totalClips: 9,
    totalViews: 1500,
    avgViews: 166.7,
    clipPoints: 2500,
  },
  {
    userId: 'c-2',
    twitterUsername: 'meme_lord',
    profileImageUrl: '/media/avatars/c-2.png',
    verified: false,
    followers: 0,
    totalClips: 4,
    totalViews: 2_000_000,
    avgViews: 500_000,
    clipPoints: null,
  },
  {
    userId: 'c-3',
    twitterUsername: 'clipqueen',
    profileImageUrl: null,
    verified: true,
    followers: 3,
    totalClips: 1,
    totalViews: 900,
    avgViews: 900,
    clipPoints: 0,
  },
];
const STREAMERS: Creators = [
  {
    userId: 's-1',
    twitterUsername: 'BigStreamer',
    profileImageUrl: null,
    verified: true,
    followers: 1200,
    totalClips: 3,
    totalViews: 300,
    avgViews: 100,
  },
  {
    userId: 's-2',
    twitterUsername: 'small_streams',
    profileImageUrl: null,
    verified: false,
    followers: 5,
    totalClips: 7,
    totalViews: 70,
    avgViews: 10,
  },
];

const lists: Handler = (call) => {
  if (call.url === '/api/creators/clippers') return { json: CLIPPERS };
  if (call.url === '/api/creators/streamers') return { json: STREAMERS };
  if (call.url === '/api/user/me') return { status: 401, text: 'Not signed in' };
  return { status: 404, text: 'No such route' };
};

/** The page at `url`, query string included (renderScreen's route is the URL itself), with the shell's providers. */
function setup(url = '/discover', handler: Handler = lists) {
  const gateway = fakeGateway(handler);
  const seen: { location?: Location } = {};
  function Probe() {
    seen.location = useLocation();
    return null;
  }
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/discover" element={<DiscoverPage />} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
          <Probe />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { gateway, search: () => seen.location?.search, user: userEvent.setup() };
}

const handles = () => screen.getAllByTestId('creator-card').map((card) => card.querySelector('.clipit-discover-card__handle')?.textContent);

describe('/discover', () => {
  it('shows 8 skeleton cards while loading, then the clippers with their figures (most clips first)', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { gateway } = setup('/discover', async (call) => {
      if (call.url === '/api/creators/clippers') await answered;
      return lists(call);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Discover Creators' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Active Clippers' })).toBeVisible();
    expect(screen.getAllByTestId('creator-skeleton')).toHaveLength(8);
    expect(screen.getByRole('status')).toHaveTextContent('Loading clippers');
    answer();

    expect(await screen.findByRole('heading', { level: 2, name: 'Active Clippers (3)' })).toBeVisible();
    expect(screen.queryAllByTestId('creator-skeleton')).toHaveLength(0);
    expect(handles()).toEqual(['@ClipKing', '@meme_lord', '@clipqueen']);
    expect(screen.getByRole('tab', { name: 'Clippers' })).toHaveAttribute('aria-selected', 'true');
    expect(gateway.calls.map((c) => c.url)).toEqual(['/api/creators/clippers']);

    const [king, meme, queen] = screen.getAllByTestId('creator-card') as [HTMLElement, HTMLElement, HTMLElement];
    const head = within(king).getByRole('link', { name: /@ClipKing/ });
    expect(head).toHaveAttribute('href', '/clipper/c-1');
    expect(within(head).getByRole('img', { name: 'Verified' })).toBeInTheDocument();
    const figures = (card: HTMLElement) =>
      Object.fromEntries(
        within(card)
          .getAllByRole('term')
          .map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]),
      );
    expect(figures(king)).toEqual({ Followers: '12', Clips: '9', Views: '1.5K', 'Avg Views': '167', 'Clip Points': '2.5K' });
    // Points not reported yet are a dash (with words for screen readers), not a made-up 0.
    expect(figures(meme)).toEqual({ Followers: '0', Clips: '4', Views: '2.0M', 'Avg Views': '500.0K', 'Clip Points': '—not yet reported' });
    expect(figures(queen)['Clip Points']).toBe('0');
    expect(within(meme).queryByRole('img', { name: 'Verified' })).toBeNull();
    expect(within(meme).getByRole('link', { name: '@meme_lord' }).querySelector('img')).toHaveAttribute('src', '/media/avatars/c-2.png');
    expect(within(king).getByRole('link', { name: 'View Profile' })).toHaveAttribute('href', '/clipper/c-1');
    expect(within(king).queryByRole('button', { name: 'Follow' })).toBeNull();
  });

  it('opens the streamers tab from ?tab= in any case; streamer cards offer Follow and no Clip Points', async () => {
    const { gateway } = setup('/discover?tab=StReAmErS');
    expect(await screen.findByRole('heading', { name: 'Active Streamers (2)' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Streamers' })).toHaveAttribute('aria-selected', 'true');
    expect(handles()).toEqual(['@small_streams', '@BigStreamer']);
    for (const card of screen.getAllByTestId('creator-card')) {
      expect(within(card).queryByText('Clip Points')).toBeNull();
      expect(within(card).queryByRole('link', { name: 'View Profile' })).toBeNull();
    }
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Follow' })).toHaveLength(2));
    expect(gateway.calls.map((c) => c.url)).toContain('/api/creators/streamers');
    expect(gateway.calls.map((c) => c.url)).not.toContain('/api/creators/clippers');
  });

  it('switching tabs loads the other list and writes the tab into the query string', async () => {
    const { search, user } = setup('/discover?tab=nonsense');
    expect(await screen.findByRole('heading', { name: 'Active Clippers (3)' })).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Streamers' }));
    expect(search()).toBe('?tab=streamers');
    expect(await screen.findByRole('heading', { name: 'Active Streamers (2)' })).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Clippers' }));
    expect(search()).toBe('?tab=clippers');
    expect(screen.getByRole('heading', { name: 'Active Clippers (3)' })).toBeVisible();
  });

  it('searches handles case-insensitively; the heading counts what is shown', async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Active Clippers (3)' });
    const search = screen.getByRole('searchbox', { name: 'Search by handle' });
    await user.type(search, 'CLIPk');
    expect(handles()).toEqual(['@ClipKing']);
    expect(screen.getByRole('heading', { name: 'Active Clippers (1)' })).toBeVisible();
    await user.clear(search);
    await user.type(search, '@clip');
    expect(handles()).toEqual(['@ClipKing', '@clipqueen']);

    await user.clear(search);
    await user.type(search, 'nobody');
    expect(screen.getByRole('heading', { name: 'Active Clippers (0)' })).toBeVisible();
    expect(screen.getByText('No clippers found')).toBeVisible();
    expect(screen.getByText('Try adjusting your search query')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Get Started' })).toBeNull();
  });

  it('sorts by most clips (the default), most views and highest average views', async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Active Clippers (3)' });
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveValue('clips');
    expect(Array.from((sort as HTMLSelectElement).options, (o) => o.text)).toEqual(['Most Clips', 'Most Views', 'Highest Avg Views']);
    await user.selectOptions(sort, 'Most Views');
    expect(handles()).toEqual(['@meme_lord', '@ClipKing', '@clipqueen']);
    await user.selectOptions(sort, 'Highest Avg Views');
    expect(handles()).toEqual(['@meme_lord', '@clipqueen', '@ClipKing']);
    await user.selectOptions(sort, 'Most Clips');
    expect(handles()).toEqual(['@ClipKing', '@meme_lord', '@clipqueen']);
  });

  it('says so when nobody is there yet, with a Get Started link to /login', async () => {
    setup('/discover?tab=streamers', (call) => (call.url.startsWith('/api/creators/') ? { json: [] } : lists(call)));
    expect(await screen.findByRole('heading', { name: 'Active Streamers (0)' })).toBeVisible();
    expect(screen.getByText('No streamers found')).toBeVisible();
    expect(screen.getByText('Be the first to create a streamer profile!')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/login');
    expect(screen.queryByText('Try adjusting your search query')).toBeNull();
  });

  it('shows the error with the server’s message, and Retry loads again', async () => {
    let fail = true;
    const { gateway, user } = setup('/discover', (call) =>
      fail && call.url === '/api/creators/clippers' ? { status: 503, text: 'Service temporarily unavailable' } : lists(call),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load clippers. Please try again.');
    expect(alert).toHaveTextContent('503: Service temporarily unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Active Clippers (3)' })).toBeVisible();
    expect(gateway.calls.filter((c) => c.url === '/api/creators/clippers')).toHaveLength(2);
  });
});
