import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, useParams } from '@clipit/router';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient, type CurrentUser } from '@clipit/web-api';
import { QueryClientProvider } from '@tanstack/react-query';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, type Call, type Reply } from '@clipit/web-testing';
import {
  apiKeyAnswer,
  currentUser,
  dashboardAnswer,
  followerCountAnswer,
  campaignsAnswer,
  followersAnswer,
  statsAnswer,
  STREAMER_ID,
  streamerUser,
  taggedVideosAnswer,
  tokenAnswer,
  USER_ID,
  webhookAnswer,
} from '../testing/fixtures.js';
import ClipperDashboardPage from './clipper-dashboard-page.js';
import type { StreamState } from '../lib/streamer-data.js';
import { STREAMER_TABS } from './streamer-dashboard.js';

const PATH = '/clippers/dashboard';

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}
function Profile() {
  return <p>Profile of {useParams()['userId']}</p>;
}

/** The dashboard at `address`, with the pages it leads to (/login, a clipper's profile) beside it. */
function renderAt(address = PATH) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      {
        path: PATH,
        element: (
          <>
            <ClipperDashboardPage />
            <Search />
          </>
        ),
      },
      { path: '/login', element: <p>Login page</p> },
      { path: '/clipper/:userId', element: <Profile /> },
    ],
    { initialEntries: [address] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

type Replies = Record<string, Reply | ((call: Call) => Reply | Promise<Reply>)>;

/**
 * The gateway of a signed-in streamer; `replies` overrides a route's answer (`'POST /api/users/go-live'`).
 * Like the real one, GET /api/user/me answers the live state and stream time the last successful write left.
 */
function streamerGateway(replies: Replies = {}, me: CurrentUser = streamerUser) {
  let user = me;
  const defaults: Replies = {
    'GET /api/user/me': () => ({ json: user }),
    // A streamer's dashboard does not need it; the page asks for it with the user all the same.
    'GET /api/dashboard': { json: dashboardAnswer() },
    [`GET /api/followers/${STREAMER_ID}`]: { json: followerCountAnswer(2) },
    [`GET /api/followers/list/${STREAMER_ID}`]: { json: followersAnswer() },
    [`GET /api/tagged-videos/${STREAMER_ID}`]: { json: taggedVideosAnswer() },
    'GET /api/tokens/mine': { json: [tokenAnswer()] },
    'GET /api/cpm-campaigns': { json: campaignsAnswer([]) },
    'GET /api/keys': { json: { keys: [] } },
    'GET /api/webhooks': { json: { endpoints: [] } },
    'POST /api/users/go-live': { json: { isLive: 'true', nextStreamTime: streamerUser.nextStreamTime, notifiedFollowers: 2 } },
    'POST /api/users/go-offline': { json: { isLive: 'false', nextStreamTime: streamerUser.nextStreamTime } },
    'POST /api/logout': { json: { ok: true } },
  };
  return fakeGateway(async (call) => {
    const key = `${call.method} ${call.url}`;
    const chosen = replies[key] ?? defaults[key];
    const reply = (typeof chosen === 'function' ? await chosen(call) : chosen) ?? { status: 404, text: 'No such route' };
    const state = reply.json as Partial<StreamState> | undefined;
    if (call.url.startsWith('/api/users/') && (reply.status ?? 200) === 200 && state?.isLive) {
      user = { ...user, isLive: state.isLive, nextStreamTime: state.nextStreamTime ?? null };
    }
    return reply;
  });
}

/** A reply the test releases when it wants (to see the page while a call is pending). */
function held() {
  let release: (reply: Reply) => void = () => undefined;
  const promise = new Promise<Reply>((resolve) => (release = resolve));
  return { reply: () => promise, release: (reply: Reply) => release(reply) };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as a datetime-local input writes it (local time, minutes). */
const localValue = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

const toastRegion = () => screen.getByRole('region', { name: 'Notifications (F8)' });

describe('the dashboard screen by who is signed in (spec 02 §2.3)', () => {
  it('sends a visitor without a session to /login', async () => {
    fakeGateway(() => ({ status: 401, text: 'Not signed in' }));
    renderAt();
    expect(await screen.findByText('Login page')).toBeVisible();
    expect(screen.queryByText('Dashboard Error')).toBeNull();
  });

  it('shows a streamer the streamer dashboard, without the clipper parts', async () => {
    streamerGateway();
    renderAt();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sam Streams' })).toBeVisible();
    expect(screen.queryByText(/Welcome back/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Tier Progress' })).toBeNull();
    const tabs = within(screen.getByRole('tablist', { name: 'Dashboard sections' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Tagged Videos', 'Followers', 'Streaming', 'CPM Campaigns', 'Profile']);
  });

  it('shows anyone else the clipper dashboard', async () => {
    fakeGateway((call) => {
      if (call.url === '/api/user/me') return { json: currentUser };
      if (call.url === '/api/dashboard') return { json: dashboardAnswer() };
      if (call.url === `/api/clipper/stats/${USER_ID}`) return { json: statsAnswer() };
      return { status: 404, text: 'No such route' };
    });
    renderAt();
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada Clips!' })).toBeVisible();
    expect(screen.queryByRole('tab', { name: 'Streaming' })).toBeNull();
  });

  it('does not need the clipper dashboard answer to show a streamer theirs', async () => {
    streamerGateway({ 'GET /api/dashboard': { status: 503, text: 'Rewards is unavailable' } });
    renderAt();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sam Streams' })).toBeVisible();
    await screen.findByRole('list', { name: 'Tagged videos' });
    expect(screen.queryByText(/Dashboard Error/)).toBeNull();
  });
});

describe('the streamer dashboard', () => {
  it('has a header with avatar, name and handle', async () => {
    streamerGateway();
    renderAt();
    const header = await screen.findByRole('region', { name: 'Sam Streams' });
    expect(within(header).getByText('@samstreams')).toBeVisible();
    expect(within(header).getByText('S')).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Logout' })).toBeEnabled();
  });

  it('sums up followers, tagged videos and the live status', async () => {
    streamerGateway({ [`GET /api/followers/${STREAMER_ID}`]: { json: followerCountAnswer(1530) } });
    renderAt();
    const card = async (title: string) => (await screen.findByRole('heading', { name: title, level: 3 })).closest('li')!;
    await waitFor(async () => expect(await card('Followers')).toHaveTextContent('1.5K'));
    expect(await card('Tagged Videos')).toHaveTextContent('2');
    expect(await card('Live Status')).toHaveTextContent('Offline');
  });

  it('says Live in the summary when the streamer is live', async () => {
    streamerGateway({}, { ...streamerUser, isLive: 'true' });
    renderAt();
    const live = (await screen.findByRole('heading', { name: 'Live Status', level: 3 })).closest('li')!;
    expect(live).toHaveTextContent('Live');
    expect(within(live).getByText('Live')).toHaveClass('clip-badge--live');
  });

  it('shows a dash in a card whose count failed, and the reason in its tab', async () => {
    streamerGateway({ [`GET /api/tagged-videos/${STREAMER_ID}`]: { status: 503, text: 'Feed is unavailable' } });
    renderAt();
    expect(await screen.findByRole('alert')).toHaveTextContent('Tagged videos are unavailable right now. Error: 503: Feed is unavailable');
    const card = screen.getByRole('heading', { name: 'Tagged Videos', level: 3 }).closest('li')!;
    expect(card).toHaveTextContent('–');
  });

  it('logs out and goes to /login', async () => {
    const gateway = streamerGateway();
    renderAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Login page')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/logout', body: undefined }]);
  });

  it("says 'Logout failed' when the logout does, and stays", async () => {
    streamerGateway({ 'POST /api/logout': { status: 503, text: 'Service temporarily unavailable' } });
    renderAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await within(toastRegion()).findByText('Logout failed')).toBeVisible();
    expect(within(toastRegion()).getByText('503: Service temporarily unavailable')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Sam Streams' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
  });
});

describe('the streamer dashboard tabs', () => {
  it('are listed once, from one table: adding an entry adds a tab', () => {
    expect(STREAMER_TABS.map((t) => t.value)).toEqual(['tagged-videos', 'followers', 'streaming', 'cpm-campaigns', 'profile']);
  });

  it('open on Tagged Videos, keep the chosen tab in the address and open the tab it names', async () => {
    streamerGateway();
    const first = renderAt();
    expect(await screen.findByRole('tab', { name: 'Tagged Videos', selected: true })).toBeVisible();
    await userEvent.click(screen.getByRole('tab', { name: 'Followers' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?tab=followers');
    await userEvent.click(screen.getByRole('tab', { name: 'Streaming' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?tab=streaming');
    await userEvent.click(screen.getByRole('tab', { name: 'CPM Campaigns' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?tab=cpm-campaigns');
    await userEvent.click(screen.getByRole('tab', { name: 'Tagged Videos' }));
    expect(screen.getByTestId('search')).toBeEmptyDOMElement();
    first.unmount();

    streamerGateway();
    renderAt(`${PATH}?tab=streaming`);
    expect(await screen.findByRole('tab', { name: 'Streaming', selected: true })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Update Stream Time' })).toBeVisible();
  });

  it('tagged videos: a card per clip with poster, status badge, name, views and likes', async () => {
    streamerGateway();
    renderAt();
    const list = await screen.findByRole('list', { name: 'Tagged videos' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('heading', { name: 'Clutch moment' })).toBeVisible();
    expect(items[0]!.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/v-1.jpg');
    expect(items[0]).toHaveTextContent('12.5K views');
    expect(items[0]).toHaveTextContent('1.2K likes');
    // Spec 02 §4: approved highlighted, any other status secondary.
    expect(within(items[0]!).getByText('Approved')).toHaveClass('clip-badge--success');
    expect(within(items[1]!).getByText('Pending')).toHaveClass('clip-badge--secondary');
    expect(items[1]).toHaveTextContent('0 views');
    expect(items[1]).toHaveTextContent('3 likes');
    expect(within(items[1]!).queryByRole('img')).toBeNull();
  });

  it('tagged videos: the summary card shows the total, and Load more reads the next page by its cursor', async () => {
    const second = { id: 'v-3', name: 'Third clip', muxPlaybackId: null, videoThumbnailUrl: null, status: 'rejected', views: 5, likes: 0 };
    const gateway = streamerGateway({
      [`GET /api/tagged-videos/${STREAMER_ID}`]: { json: taggedVideosAnswer(undefined, { nextCursor: 'page-2', total: 3 }) },
      [`GET /api/tagged-videos/${STREAMER_ID}?cursor=page-2`]: { json: taggedVideosAnswer([second], { total: 3 }) },
    });
    renderAt();
    const list = await screen.findByRole('list', { name: 'Tagged videos' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const card = screen.getByRole('heading', { name: 'Tagged Videos', level: 3 }).closest('li')!;
    expect(card).toHaveTextContent(/^Tagged Videos3Clips tagged with you$/);
    expect(screen.getByText('Showing 2 of 3')).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Load more videos' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(within(list).getByRole('heading', { name: 'Third clip' })).toBeVisible();
    expect(screen.getByText('Showing 3 of 3')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more videos' })).toBeNull();
    // The first page was read once, by the screen; the tab read only the next.
    expect(gateway.calls.filter((c) => c.url.startsWith('/api/tagged-videos/')).map((c) => c.url)).toEqual([
      `/api/tagged-videos/${STREAMER_ID}`,
      `/api/tagged-videos/${STREAMER_ID}?cursor=page-2`,
    ]);
  });

  it("tagged videos: 'No tagged videos yet' when there are none", async () => {
    streamerGateway({ [`GET /api/tagged-videos/${STREAMER_ID}`]: { json: taggedVideosAnswer([]) } });
    renderAt();
    expect(await screen.findByRole('heading', { name: 'No tagged videos yet' })).toBeVisible();
  });

  it("followers: avatar, name, handle and 'View Profile' to /clipper/{id}", async () => {
    streamerGateway();
    renderAt(`${PATH}?tab=followers`);
    const list = await screen.findByRole('list', { name: 'Followers' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('heading', { name: 'Fan One' })).toBeVisible();
    expect(within(items[0]!).getByText('@fanone')).toBeVisible();
    expect(within(items[0]!).getByRole('img', { name: "Fan One's profile picture" })).toHaveAttribute(
      'src',
      'https://cdn.example.com/fan-one.png',
    );
    // No display name: the handle is the name, its initial the avatar.
    expect(within(items[1]!).getByRole('heading', { name: '@fantwo' })).toBeVisible();
    expect(within(items[1]!).getByText('F')).toBeInTheDocument();
    const link = within(items[0]!).getByRole('link', { name: /^View Profile/ });
    expect(link).toHaveTextContent('View Profile');
    expect(link).toHaveAttribute('href', '/clipper/f-1');
    await userEvent.click(link);
    expect(await screen.findByText('Profile of f-1')).toBeVisible();
  });

  it("followers: 'Load more followers' asks for the next page with the cursor, until every follower is shown", async () => {
    const [one, two] = followersAnswer().followers;
    const gateway = streamerGateway({
      [`GET /api/followers/list/${STREAMER_ID}`]: { json: { followers: [one!], nextCursor: 'page-2', total: 2 } },
      [`GET /api/followers/list/${STREAMER_ID}?cursor=page-2`]: { json: { followers: [two!], nextCursor: null, total: 2 } },
    });
    renderAt(`${PATH}?tab=followers`);
    const list = await screen.findByRole('list', { name: 'Followers' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Showing the newest 1 of 2 followers.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Load more followers' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getByRole('heading', { name: '@fantwo' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more followers' })).toBeNull();
    expect(screen.queryByText(/^Showing the newest/)).toBeNull();
    expect(gateway.calls.filter((c) => c.url.startsWith('/api/followers/list/')).map((c) => c.url)).toEqual([
      `/api/followers/list/${STREAMER_ID}`,
      `/api/followers/list/${STREAMER_ID}?cursor=page-2`,
    ]);
  });

  it("followers: 'No followers yet' when there are none", async () => {
    streamerGateway({ [`GET /api/followers/list/${STREAMER_ID}`]: { json: followersAnswer([]) } });
    renderAt(`${PATH}?tab=followers`);
    expect(await screen.findByRole('heading', { name: 'No followers yet' })).toBeVisible();
  });
});

describe('the streamer’s profile tab (spec 02 §2.6)', () => {
  it('edits the display name as the clipper dashboard does, beside the next stream time', async () => {
    const gateway = streamerGateway({
      'POST /api/user/update-profile': (call) => ({ json: { ...streamerUser, ...(call.body as object) } }),
    });
    renderAt(`${PATH}?tab=profile`);
    expect(await screen.findByRole('tab', { name: 'Profile', selected: true })).toBeVisible();
    expect(screen.getByLabelText('Profile Picture')).toBeVisible();
    expect(screen.getByLabelText('Banner Image')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Update Stream Time' })).toBeVisible();
    const name = screen.getByLabelText('Display Name');
    expect(name).toHaveValue('Sam Streams');
    await userEvent.clear(name);
    await userEvent.type(name, 'Sam Live');
    await userEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await within(toastRegion()).findByText('Profile updated!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/user/update-profile', body: { displayName: 'Sam Live' } }]);
  });
});

describe('the cpm-campaigns and token parts of the streamer dashboard (spec 02 §2.5, ADR 0027)', () => {
  it('opens the cpm-campaigns tab from the address: the pitch, the form and the streamer’s campaigns', async () => {
    streamerGateway({ 'GET /api/cpm-campaigns': { json: campaignsAnswer() } });
    renderAt(`${PATH}?tab=cpm-campaigns`);
    expect(await screen.findByRole('tab', { name: 'CPM Campaigns', selected: true })).toBeVisible();
    expect(screen.getByText('$5 per 1,000 views')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit Campaign' })).toBeVisible();
    expect(await screen.findByRole('list', { name: 'Your campaigns' })).toBeVisible();
  });

  it('shows the streamer’s tokens below the live controls in the streaming tab', async () => {
    streamerGateway({ 'GET /api/tokens/mine': { json: [tokenAnswer()] } });
    renderAt(`${PATH}?tab=streaming`);
    const tokens = await screen.findByRole('list', { name: 'Your tokens' });
    expect(within(tokens).getByRole('heading', { name: 'SAM' })).toBeVisible();
    // Below the live controls, in the same panel.
    const live = screen.getByRole('button', { name: 'Go Live' });
    expect(live.compareDocumentPosition(tokens) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your tokens', level: 2 })).toBeVisible();
  });

  it('shows the Developer API card below the tokens in the streaming tab', async () => {
    streamerGateway({ 'GET /api/keys': { json: { keys: [apiKeyAnswer({ scopes: ['campaigns:read'] })] } } });
    renderAt(`${PATH}?tab=streaming`);
    const keys = await screen.findByRole('list', { name: 'Your API keys' });
    expect(within(keys).getByText('campaigns:read')).toBeVisible();
    const tokens = await screen.findByRole('list', { name: 'Your tokens' });
    expect(tokens.compareDocumentPosition(keys) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Developer API', level: 2 })).toBeVisible();
  });

  it('shows the Webhooks card directly below the Developer API card in the streaming tab', async () => {
    streamerGateway({ 'GET /api/webhooks': { json: { endpoints: [webhookAnswer({ events: ['campaign.progress'] })] } } });
    renderAt(`${PATH}?tab=streaming`);
    const endpoints = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    expect(within(endpoints).getByText('campaign.progress')).toBeVisible();
    const card = screen.getByRole('heading', { name: 'Webhooks', level: 2 });
    const keys = screen.getByRole('heading', { name: 'Developer API', level: 2 });
    expect(keys.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Directly below: the next card of the panel.
    expect(keys.closest('.clip-card')!.nextElementSibling).toBe(card.closest('.clip-card'));
  });
});

describe('the streaming tab', () => {
  it('prefills the picker with the next stream time, in local time', async () => {
    streamerGateway();
    renderAt(`${PATH}?tab=streaming`);
    const input = await screen.findByLabelText('Next Stream Time');
    expect(input).toHaveAttribute('type', 'datetime-local');
    expect(input).toHaveValue(localValue(new Date(streamerUser.nextStreamTime!)));
  });

  it('sends the time as an ISO string, says so, and shows the new time', async () => {
    const at = new Date(Date.now() + 7 * 24 * 3_600_000);
    at.setSeconds(0, 0);
    const iso = at.toISOString();
    const gateway = streamerGateway({
      'PATCH /api/users/stream-time': (call) => ({
        json: { isLive: 'false', nextStreamTime: (call.body as { streamTime: string }).streamTime },
      }),
    });
    renderAt(`${PATH}?tab=streaming`);
    fireEvent.change(await screen.findByLabelText('Next Stream Time'), { target: { value: localValue(at) } });
    await userEvent.click(screen.getByRole('button', { name: 'Update Stream Time' }));
    expect(await within(toastRegion()).findByText('Stream time updated!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'PATCH', url: '/api/users/stream-time', body: { streamTime: iso } }]);
    await waitFor(() => expect(screen.getByLabelText('Next Stream Time')).toHaveValue(localValue(at)));
  });

  it('sends null when the picker is emptied', async () => {
    const gateway = streamerGateway({ 'PATCH /api/users/stream-time': { json: { isLive: 'false', nextStreamTime: null } } });
    renderAt(`${PATH}?tab=streaming`);
    fireEvent.change(await screen.findByLabelText('Next Stream Time'), { target: { value: '' } });
    await userEvent.click(screen.getByRole('button', { name: 'Update Stream Time' }));
    expect(await within(toastRegion()).findByText('Stream time updated!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'PATCH', url: '/api/users/stream-time', body: { streamTime: null } }]);
    expect(await screen.findByText('No stream scheduled. Let your followers know when you go live next.')).toBeVisible();
  });

  it('checks the time by the shared rule before sending it (a time past is refused here)', async () => {
    const gateway = streamerGateway();
    renderAt(`${PATH}?tab=streaming`);
    const input = await screen.findByLabelText('Next Stream Time');
    fireEvent.change(input, { target: { value: localValue(new Date(Date.now() - 24 * 3_600_000)) } });
    await userEvent.click(screen.getByRole('button', { name: 'Update Stream Time' }));
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Stream time must be in the future'));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(gateway.writes()).toEqual([]);
  });

  it("says 'Error' with 'Failed to update stream time' when the update fails, the buttons disabled meanwhile", async () => {
    const call = held();
    streamerGateway({ 'PATCH /api/users/stream-time': call.reply });
    renderAt(`${PATH}?tab=streaming`);
    await userEvent.click(await screen.findByRole('button', { name: 'Update Stream Time' }));
    expect(screen.getByRole('button', { name: 'Updating...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Go Live' })).toBeDisabled();
    call.release({ status: 400, text: 'Stream time must be within a year' });
    expect(await within(toastRegion()).findByText('Error')).toBeVisible();
    expect(within(toastRegion()).getByText('Failed to update stream time: 400: Stream time must be within a year')).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Update Stream Time' })).toBeEnabled();
  });

  it('goes live: the toast counts the followers told, the buttons disabled meanwhile, then Go Offline', async () => {
    const call = held();
    const gateway = streamerGateway({ 'POST /api/users/go-live': call.reply });
    renderAt(`${PATH}?tab=streaming`);
    await userEvent.click(await screen.findByRole('button', { name: 'Go Live' }));
    expect(screen.getByRole('button', { name: 'Going live...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Update Stream Time' })).toBeDisabled();
    call.release({ json: { isLive: 'true', nextStreamTime: streamerUser.nextStreamTime, notifiedFollowers: 12 } });
    expect(await within(toastRegion()).findByText("You're now live!")).toBeVisible();
    expect(within(toastRegion()).getByText('12 followers will be notified.')).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Go Offline' })).toBeEnabled();
    expect(screen.getByRole('heading', { name: 'Live Status', level: 3 }).closest('li')).toHaveTextContent('Live');
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/users/go-live', body: undefined }]);
  });

  it('says one follower in the singular', async () => {
    streamerGateway({ 'POST /api/users/go-live': { json: { isLive: 'true', nextStreamTime: null, notifiedFollowers: 1 } } });
    renderAt(`${PATH}?tab=streaming`);
    await userEvent.click(await screen.findByRole('button', { name: 'Go Live' }));
    expect(await within(toastRegion()).findByText('1 follower will be notified.')).toBeVisible();
  });

  it("says 'Failed to go live' when going live fails, and stays offline", async () => {
    streamerGateway({ 'POST /api/users/go-live': { status: 403, text: 'Only streamers can go live' } });
    renderAt(`${PATH}?tab=streaming`);
    await userEvent.click(await screen.findByRole('button', { name: 'Go Live' }));
    expect(await within(toastRegion()).findByText('Failed to go live')).toBeVisible();
    expect(within(toastRegion()).getByText('403: Only streamers can go live')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Go Live' })).toBeEnabled();
  });

  it('goes offline when live: its toast, then Go Live again', async () => {
    const call = held();
    streamerGateway({ 'POST /api/users/go-offline': call.reply }, { ...streamerUser, isLive: 'true' });
    renderAt(`${PATH}?tab=streaming`);
    await userEvent.click(await screen.findByRole('button', { name: 'Go Offline' }));
    expect(screen.getByRole('button', { name: 'Going offline...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Update Stream Time' })).toBeDisabled();
    call.release({ json: { isLive: 'false', nextStreamTime: streamerUser.nextStreamTime } });
    expect(await within(toastRegion()).findByText("You're now offline")).toBeVisible();
    expect(within(toastRegion()).getByText('Your live status has been updated.')).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Go Live' })).toBeVisible();
  });

  it("says 'Failed to go offline' when going offline fails", async () => {
    streamerGateway(
      { 'POST /api/users/go-offline': { status: 503, text: 'Service temporarily unavailable' } },
      { ...streamerUser, isLive: 'true' },
    );
    renderAt(`${PATH}?tab=streaming`);
    await userEvent.click(await screen.findByRole('button', { name: 'Go Offline' }));
    expect(await within(toastRegion()).findByText('Failed to go offline')).toBeVisible();
    expect(within(toastRegion()).getByText('503: Service temporarily unavailable')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Go Offline' })).toBeEnabled();
  });

  it('takes the state the call answered, and refreshes the dashboard, the public profile and the featured clippers', async () => {
    // /api/user/me keeps answering offline (identity mirrors the live state a moment later): the page
    // shows the state go-live answered all the same, and does not read the user again.
    const gateway = streamerGateway({ 'GET /api/user/me': { json: streamerUser } });
    const { queryClient } = renderAt(`${PATH}?tab=streaming`);
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    await userEvent.click(await screen.findByRole('button', { name: 'Go Live' }));
    await within(toastRegion()).findByText("You're now live!");
    await waitFor(() => expect(invalidate).toHaveBeenCalledTimes(3));
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['/api/dashboard'],
      ['/api/clipper', STREAMER_ID],
      ['/api/featured-clippers'],
    ]);
    expect(screen.getByRole('button', { name: 'Go Offline' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Live Status', level: 3 }).closest('li')).toHaveTextContent('Live');
    expect(gateway.calls.filter((c) => c.url === '/api/user/me')).toHaveLength(1);
  });
});
