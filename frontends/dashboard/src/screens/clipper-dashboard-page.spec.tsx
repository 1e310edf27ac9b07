import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from '@clipit/router';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient } from '@clipit/web-api';
import { QueryClientProvider } from '@tanstack/react-query';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import {
  apiKeyAnswer,
  currentUser,
  dashboardAnswer,
  earningsAnswer,
  hireAnswer,
  hiresAnswer,
  hiringProfileAnswer,
  payoutsAnswer,
  statsAnswer,
  USER_ID,
  webhookAnswer,
} from '../testing/fixtures.js';
import ClipperDashboardPage from './clipper-dashboard-page.js';

const PATH = '/clippers/dashboard';

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

/** The page at an address with a query string (renderScreen takes a route path), the search shown beside it. */
function renderAt(address: string) {
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
    ],
    { initialEntries: [address] },
  );
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

/** The gateway of a signed-in clipper; `replies` overrides a route's answer (`'POST /api/clipper/refresh-points'`). */
function signedIn(replies: Record<string, Reply | ((call: Call) => Reply | Promise<Reply>)> = {}) {
  const defaults: Record<string, Reply> = {
    'GET /api/user/me': { json: currentUser },
    'GET /api/dashboard': { json: dashboardAnswer() },
    [`GET /api/clipper/stats/${USER_ID}`]: { json: statsAnswer() },
    'GET /api/earnings': { json: earningsAnswer },
    'GET /api/earnings/payouts': { json: payoutsAnswer },
    'GET /api/hires': { json: hiresAnswer([]) },
    'GET /api/hires?status=pending': { json: hiresAnswer([]) },
    [`GET /api/clippers/${USER_ID}/profile`]: { json: hiringProfileAnswer() },
    'GET /api/user/sessions': { json: { sessions: [] } },
    'GET /api/keys': { json: { keys: [apiKeyAnswer()] } },
    'GET /api/webhooks': { json: { endpoints: [webhookAnswer()] } },
  };
  return fakeGateway((call) => {
    const key = `${call.method} ${call.url}`;
    const reply = replies[key] ?? defaults[key];
    if (typeof reply === 'function') return reply(call);
    return reply ?? { status: 404, text: 'No such route' };
  });
}

describe('/clippers/dashboard states (spec 02 §2.2)', () => {
  it('says it is loading, with the page drawn as skeletons', async () => {
    fakeGateway(() => new Promise<Reply>(() => undefined));
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(screen.getByRole('status')).toHaveTextContent('Loading dashboard...');
  });

  it('sends a visitor without a session to the login page (spec 02 §2.3)', async () => {
    fakeGateway(() => ({ status: 401, text: 'Not signed in' }));
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByText('elsewhere')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Dashboard Error' })).toBeNull();
  });

  it('asks to sign in again when the session ends between the two reads, with a way to the login page', async () => {
    signedIn({ 'GET /api/dashboard': { status: 401, text: 'Not signed in' } });
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByRole('heading', { name: 'Dashboard Error' })).toBeVisible();
    expect(screen.getByText('Please sign in to access your dashboard.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Login' }));
    expect(await screen.findByText('elsewhere')).toBeVisible();
  });

  it('shows the error of a failed load as "Error: status: text"', async () => {
    signedIn({ 'GET /api/dashboard': { status: 503, text: 'Rewards is unavailable' } });
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByRole('heading', { name: 'Dashboard Error' })).toBeVisible();
    expect(screen.getByText('Error: 503: Rewards is unavailable')).toBeVisible();
  });

  it('shows the error of the user read too', async () => {
    fakeGateway(() => ({ status: 500, text: 'Boom' }));
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByText('Error: 500: Boom')).toBeVisible();
  });
});

describe('the clipper dashboard', () => {
  it('greets the clipper with avatar, tier, rate and a Logout that leaves the page', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada Clips!' })).toBeVisible();
    const header = screen.getByRole('region', { name: 'Welcome back, Ada Clips!' });
    expect(within(header).getByText('Bronze Tier')).toBeVisible();
    expect(within(header).getByText('10 $CLIP per clip')).toBeVisible();
    expect(within(header).getByText('A')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');
  });

  it('shows the stat cards from the dashboard answer', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const approved = (await screen.findByRole('heading', { name: 'Approved Clips' })).closest('li')!;
    expect(approved).toHaveTextContent('4');
    expect(approved).toHaveTextContent('2 in the last 4 weeks');
    expect(screen.getByRole('heading', { name: 'Approval Rate' }).closest('li')).toHaveTextContent('66.7%');
    expect(screen.getByRole('heading', { name: 'Avg Views' }).closest('li')).toHaveTextContent('1.5K');
    expect(screen.getByRole('heading', { name: 'This Week' }).closest('li')).toHaveTextContent('1');
  });

  it('shows the tier progress with what is still missing', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const bar = await screen.findByRole('progressbar', { name: 'Progress to Silver' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText(/15 \$CLIP per clip/)).toBeVisible();
    const missing = screen.getByRole('list', { name: 'Missing requirements for Silver' });
    expect(
      within(missing)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['6 more approved clips (4 of 10)', '3 more approved clips in the last 4 weeks (2 of 5)']);
  });

  it('says when the next tier is met, and when there is none', async () => {
    signedIn({
      'GET /api/dashboard': {
        json: dashboardAnswer({
          tierProgress: {
            currentTier: { name: 'Bronze', ratePerClip: 10 },
            nextTier: { name: 'Silver', ratePerClip: 15 },
            progressPercent: 100,
            missingRequirements: [],
            meetsNextTierRequirements: true,
          },
        }),
      },
    });
    const first = renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByText(/You meet the requirements for Silver!/)).toBeVisible();
    first.unmount();

    signedIn({
      'GET /api/dashboard': {
        json: dashboardAnswer({
          tierProgress: {
            currentTier: { name: 'Diamond', ratePerClip: 40 },
            nextTier: null,
            progressPercent: 100,
            missingRequirements: [],
            meetsNextTierRequirements: false,
          },
        }),
      },
    });
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByText(/You have reached the top tier: Diamond/)).toBeVisible();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('explains how clip points work', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const heading = await screen.findByRole('heading', { name: 'How Clip Points Work' });
    const card = heading.closest('.clip-card')!;
    expect(card).toHaveTextContent('10 base points');
    expect(card).toHaveTextContent('divided by 10');
    expect(card).toHaveTextContent('halved (50%) after 2 weeks');
    expect(card).toHaveTextContent('1.1x to 2x');
  });

  it('counts the points up to the total, with rank and locked features', async () => {
    const gateway = signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const counter = await screen.findByTestId('points-counter');
    await waitFor(() => expect(counter).toHaveTextContent(/^420$/), { timeout: 3000 });
    expect(screen.getByText('#3')).toBeVisible();
    expect(screen.getByText(/of 17 clippers/)).toBeVisible();
    expect(screen.getByText('Bronze Clipper')).toBeVisible();
    const locked = screen.getByRole('list', { name: 'Locked features' });
    expect(
      within(locked)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns']);
    expect(gateway.calls.map((c) => c.url)).toContain(`/api/clipper/stats/${USER_ID}`);
  });

  it('says all features are unlocked at gold', async () => {
    signedIn({ [`GET /api/clipper/stats/${USER_ID}`]: { json: statsAnswer({ tier: 'gold', lockedFeatures: [] }) } });
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByText('All Features Unlocked!')).toBeVisible();
    expect(screen.getByText('Gold Clipper')).toBeVisible();
  });

  it('opens and closes the point breakdown', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const toggle = await screen.findByRole('button', { name: 'Show point breakdown' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('View bonus (views ÷ 10)')).toBeNull();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Hide point breakdown');
    expect(screen.getByText('View bonus (views ÷ 10)').nextSibling).toHaveTextContent('612');
    expect(screen.getByText('Inactivity penalty').nextSibling).toHaveTextContent(/halved/);
    expect(screen.getByText('Approval ratio').nextSibling).toHaveTextContent('67%');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('View bonus (views ÷ 10)')).toBeNull();
  });

  it('refreshes the points: a toast with the new total, the button disabled meanwhile', async () => {
    let answer: (reply: Reply) => void = () => undefined;
    const gateway = signedIn({ 'POST /api/clipper/refresh-points': () => new Promise<Reply>((resolve) => (answer = resolve)) });
    renderScreen(<ClipperDashboardPage />, PATH);
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh Points' }));
    expect(screen.getByRole('button', { name: 'Refreshing...' })).toBeDisabled();
    answer({ json: statsAnswer({ points: 512, rank: 2 }) });
    expect(await screen.findByText('Points Refreshed!')).toBeVisible();
    expect(screen.getByText('Updated to 512 points')).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Refresh Points' })).toBeEnabled();
    expect(screen.getByText('#2')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/clipper/refresh-points', body: undefined }]);
  });

  it('says when refreshing the points failed', async () => {
    signedIn({ 'POST /api/clipper/refresh-points': { status: 503, text: 'Rewards is unavailable' } });
    renderScreen(<ClipperDashboardPage />, PATH);
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh Points' }));
    expect(await screen.findByText('Failed to refresh points')).toBeVisible();
    expect(screen.getByText('503: Rewards is unavailable')).toBeVisible();
  });
});

describe('the dashboard tabs', () => {
  it('are five accessible tabs, Submissions first, the choice kept in the address', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const tablist = await screen.findByRole('tablist', { name: 'Dashboard sections' });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Submissions', 'Submit New Clip', 'Earnings', 'Profile', 'Hire Requests']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Submissions' })).toBeVisible();

    await userEvent.click(tabs[2]!);
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Earnings' })).toBeVisible();

    // Arrow keys move between tabs (and select them).
    await userEvent.keyboard('{ArrowRight}');
    expect(tabs[3]).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('textbox', { name: 'Display Name' })).toBeVisible();
  });

  it('opens the tab the address names, and names the chosen tab in the address', async () => {
    signedIn();
    renderAt(`${PATH}?tab=earnings`);
    expect(await screen.findByRole('tab', { name: 'Earnings', selected: true })).toBeVisible();
    await userEvent.click(screen.getByRole('tab', { name: 'Profile' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?tab=profile');
    await userEvent.click(screen.getByRole('tab', { name: 'Submissions' }));
    expect(screen.getByTestId('search')).toBeEmptyDOMElement();
  });

  it('lists the recent submissions with platform, views, date, status and rejection reason', async () => {
    signedIn();
    renderScreen(<ClipperDashboardPage />, PATH);
    const list = await screen.findByRole('list', { name: 'Recent submissions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByRole('link', { name: 'Big win clip' })).toHaveAttribute('href', 'https://x.com/adaclips/status/1');
    expect(items[0]).toHaveTextContent('Twitter/X');
    expect(items[0]).toHaveTextContent('2.5K views');
    expect(items[0]).toHaveTextContent(/Nov 20, 2026 • \d{1,2}:07 (AM|PM)/);
    expect(items[0]).toHaveTextContent('Approved');
    expect(items[1]).toHaveTextContent('Rejected');
    expect(items[1]).toHaveTextContent('Reason: Video is too blurry');
    expect(items[2]).toHaveTextContent('Tiktok');
    expect(items[2]).toHaveTextContent('Pending');
  });

  it('has an empty state that leads to the submit tab', async () => {
    // The tab's form is the public remote's, not on this page: the tab says so in the console and links to /submit.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    signedIn({ 'GET /api/dashboard': { json: dashboardAnswer({ recentSubmissions: [] }) } });
    renderScreen(<ClipperDashboardPage />, PATH);
    expect(await screen.findByRole('heading', { name: 'No submissions yet' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Submit a clip' }));
    expect(screen.getByRole('tab', { name: 'Submit New Clip' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('link', { name: 'Submit your clip on the submit page' })).toHaveAttribute('href', '/submit');
    consoleError.mockRestore();
  });

  it('counts the pending hire requests on the Hire Requests tab, and lowers the count once one is answered', async () => {
    let hires = [hireAnswer(), hireAnswer({ id: 'h-2', clientName: 'Second Co' }), hireAnswer({ id: 'h-3', status: 'accepted' })];
    const gateway = signedIn({
      'GET /api/hires': () => ({ json: hiresAnswer(hires) }),
      'GET /api/hires?status=pending': () => ({ json: hiresAnswer(hires.filter((h) => h.status === 'pending')) }),
      'POST /api/hires/h-1/accept': () => {
        hires = hires.map((h) => (h.id === 'h-1' ? { ...h, status: 'accepted' as const } : h));
        return { json: hires[0] };
      },
    });
    renderAt(`${PATH}?tab=hires`);
    expect(await screen.findByRole('tab', { name: 'Hire Requests 2 pending', selected: true })).toBeVisible();
    const list = await screen.findByRole('list', { name: 'Hire requests' });
    await userEvent.click(within(within(list).getAllByRole('listitem')[0]!).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('tab', { name: 'Hire Requests 1 pending' })).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/hires/h-1/accept', body: {} }]);
  });

  it('shows no count when nothing is pending, and the hiring profile in the Profile tab', async () => {
    signedIn({
      'GET /api/hires?status=pending': { json: hiresAnswer([]) },
      [`GET /api/clippers/${USER_ID}/profile`]: { json: hiringProfileAnswer({ clipperTier: 'bronze', canBeHired: false }) },
    });
    renderAt(`${PATH}?tab=profile`);
    expect(await screen.findByRole('heading', { name: 'Hiring profile', level: 2 })).toBeVisible();
    expect(await screen.findByText('Reach Gold to be hired')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Display Name' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Hire Requests' })).toHaveTextContent(/^Hire Requests$/);
  });

  it('shows the Developer API card in the Profile tab, below the wallet and the sessions', async () => {
    signedIn();
    renderAt(`${PATH}?tab=profile`);
    const keys = await screen.findByRole('list', { name: 'Your API keys' });
    expect(within(keys).getByRole('heading', { name: 'Agency reporting' })).toBeVisible();
    const card = screen.getByRole('heading', { name: 'Developer API', level: 2 });
    const sessions = screen.getByRole('heading', { name: "Where You're Signed In", level: 2 });
    expect(sessions.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the Webhooks card in the Profile tab, directly below the Developer API card', async () => {
    signedIn();
    renderAt(`${PATH}?tab=profile`);
    const endpoints = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    expect(within(endpoints).getByRole('heading', { name: webhookAnswer().url })).toBeVisible();
    const card = screen.getByRole('heading', { name: 'Webhooks', level: 2 });
    const keys = screen.getByRole('heading', { name: 'Developer API', level: 2 });
    expect(keys.closest('.clip-card')!.nextElementSibling).toBe(card.closest('.clip-card'));
  });
});
