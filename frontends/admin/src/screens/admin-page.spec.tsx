import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { renderScreen } from '@clipit/web-testing';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SESSION_EXPIRED_MESSAGE } from '../lib/admin-api.js';
import {
  adminRoutes,
  aPage,
  anApplication,
  aPlaceholder,
  aSubmission,
  fakeAdminGateway,
  restoreFetch,
  seedSession,
  storedSession,
  TOKEN,
} from '../testing/admin-gateway.js';
import AdminPage from './admin-page.js';

const PASSWORD = 'the-admin-password';
const gate = () => screen.getByRole('form', { name: 'Admin Access' });
const passwordField = () => screen.getByLabelText('Password', { selector: 'input' });
const unlock = () => screen.getByRole('button', { name: 'Unlock' });

beforeEach(() => sessionStorage.clear());
afterEach(() => restoreFetch());

const dashboardData = {
  submissions: aPage([aSubmission()], { total: 42, createdLast7Days: 7 }),
  applications: [anApplication(), anApplication({ id: 'app-2' })],
  placeholders: [aPlaceholder(), aPlaceholder({ id: 'ph-2' }), aPlaceholder({ id: 'ph-3' })],
};

describe('/admin: the password gate (spec 02 §2.4, ADR 0020)', () => {
  it("shows 'Admin Access' and asks for the password; an empty one is refused without a call", async () => {
    const gateway = fakeAdminGateway();
    renderScreen(<AdminPage />, '/admin');
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
    expect(screen.getByText('Enter password to continue')).toBeVisible();
    expect(passwordField()).toHaveAttribute('type', 'password');
    await userEvent.click(unlock());
    expect(await within(gate()).findByRole('alert')).toHaveTextContent('Password is required');
    expect(gateway.calls).toEqual([]);
  });

  it("a wrong password shows the server's 'Incorrect password' and stores nothing", async () => {
    const gateway = fakeAdminGateway(() => ({ status: 401, text: 'Incorrect password' }));
    renderScreen(<AdminPage />, '/admin');
    await userEvent.type(passwordField(), 'wrong-password');
    await userEvent.click(unlock());
    expect(await within(gate()).findByText('Incorrect password')).toBeVisible();
    expect(within(gate()).getByRole('alert')).toHaveTextContent('Incorrect password');
    expect(gateway.calls).toEqual([
      { method: 'POST', url: '/api/admin/verify-password', body: { password: 'wrong-password' }, authorization: null },
    ]);
    expect(storedSession()).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).toBeNull();
  });

  it("429 shows the server's text; any other failure (5xx, network) 'Authentication failed'", async () => {
    let reply: Parameters<typeof fakeAdminGateway>[0] = () => ({ status: 429, text: 'Too many attempts. Please try again later.' });
    fakeAdminGateway((call) => reply!(call));
    renderScreen(<AdminPage />, '/admin');
    await userEvent.type(passwordField(), 'x');
    await userEvent.click(unlock());
    expect(await within(gate()).findByText('Too many attempts. Please try again later.')).toBeVisible();

    reply = () => ({ status: 503, text: 'Admin service unavailable' });
    await userEvent.click(unlock());
    expect(await within(gate()).findByText('Authentication failed')).toBeVisible();

    await userEvent.type(passwordField(), 'y');
    reply = () => ({ networkError: true });
    await userEvent.click(unlock());
    expect(await within(gate()).findByText('Authentication failed')).toBeVisible();
    expect(storedSession()).toBeNull();
  });

  it('the right password opens the dashboard, keeps only the token (never the password) and sends it on every admin call', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const routes = adminRoutes(dashboardData);
    const gateway = fakeAdminGateway((call) =>
      call.url === '/api/admin/verify-password' ? { json: { token: TOKEN, expiresAt } } : routes(call),
    );
    renderScreen(<AdminPage />, '/admin');
    await userEvent.type(passwordField(), PASSWORD);
    await userEvent.click(unlock());

    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    const figures = screen.getByRole('region', { name: 'Submission figures' });
    await waitFor(() => expect(within(figures).getByText('42')).toBeVisible());
    expect(within(figures).getByText('Total Submissions')).toBeVisible();
    expect(within(figures).getByText('7')).toBeVisible();
    expect(within(figures).getByText('Last 7 Days')).toBeVisible();
    // Four tabs, each with its count, Appeals (ADR 0051) and System (the platform's health).
    await waitFor(() =>
      expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
        'Post Submissions 42',
        'Job Applications 2',
        'Campaigns 0',
        'Placeholder Streamers 3',
        'Appeals',
        'System',
      ]),
    );

    expect(JSON.parse(storedSession()!)).toEqual({ token: TOKEN, expiresAt });
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(PASSWORD);
    expect(JSON.stringify({ ...localStorage })).not.toContain(PASSWORD);
    // The password went out once; every admin call after it carries the token.
    const [verify, ...admin] = gateway.calls;
    expect(verify).toMatchObject({ url: '/api/admin/verify-password', authorization: null });
    expect(admin.length).toBeGreaterThanOrEqual(4);
    for (const call of admin) {
      expect(call.authorization).toBe(`Bearer ${TOKEN}`);
      expect(JSON.stringify(call)).not.toContain(PASSWORD);
    }
    expect(admin.map((c) => c.url.split('?')[0]).sort()).toEqual([
      '/api/admin/campaigns',
      '/api/admin/placeholder-streamers',
      '/api/admin/submissions',
      '/api/clipper-applications',
    ]);
  });

  it('a token stored in this tab opens the dashboard without asking again', async () => {
    seedSession();
    const gateway = fakeAdminGateway(adminRoutes(dashboardData));
    renderScreen(<AdminPage />, '/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(gateway.calls.some((c) => c.url === '/api/admin/verify-password')).toBe(false);
  });

  it("when the token's time is up the gate comes back with the expiry message and the token is dropped", async () => {
    seedSession(TOKEN, 300);
    fakeAdminGateway(adminRoutes(dashboardData));
    renderScreen(<AdminPage />, '/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE, {}, { timeout: 3000 })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).toBeNull();
    expect(storedSession()).toBeNull();
  });

  it('a token already expired when the page opens is dropped and the gate says so', async () => {
    seedSession(TOKEN, -1000);
    const gateway = fakeAdminGateway();
    renderScreen(<AdminPage />, '/admin');
    expect(screen.getByText(SESSION_EXPIRED_MESSAGE)).toBeVisible();
    expect(storedSession()).toBeNull();
    expect(gateway.calls).toEqual([]);
  });

  it('any admin call answering 401 ends the session: the gate, the message, no token', async () => {
    seedSession();
    fakeAdminGateway((call) =>
      call.url.startsWith('/api/admin/submissions') ? { status: 401, text: 'Invalid admin token' } : adminRoutes(dashboardData)(call),
    );
    renderScreen(<AdminPage />, '/admin');
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    expect(storedSession()).toBeNull();
    // Not a list failure: no 'Failed to fetch submissions' toast.
    expect(screen.queryByText('Failed to fetch submissions')).toBeNull();
  });

  it('Lock drops the token and shows the gate without the expiry message', async () => {
    seedSession();
    fakeAdminGateway(adminRoutes(dashboardData));
    renderScreen(<AdminPage />, '/admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Lock' }));
    expect(screen.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    expect(screen.queryByText(SESSION_EXPIRED_MESSAGE)).toBeNull();
    expect(storedSession()).toBeNull();
  });
});
