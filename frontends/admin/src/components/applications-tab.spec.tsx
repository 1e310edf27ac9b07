import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { renderScreen } from '@clipit/web-testing';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import AdminPage from '../screens/admin-page.js';
import {
  adminRoutes,
  anApplication,
  fakeAdminGateway,
  restoreFetch,
  seedSession,
  TOKEN,
  type AdminHandler,
} from '../testing/admin-gateway.js';

beforeEach(() => {
  sessionStorage.clear();
  seedSession();
});
afterEach(() => restoreFetch());

async function openTab(handler: AdminHandler) {
  const gateway = fakeAdminGateway(handler);
  renderScreen(<AdminPage />, '/admin');
  await userEvent.click(await screen.findByRole('tab', { name: /Job Applications/ }));
  return gateway;
}

describe('Job Applications (spec 02 §2.4)', () => {
  it('lists every field of each application and its status, read-only', async () => {
    const gateway = await openTab(
      adminRoutes({
        applications: [
          anApplication(),
          anApplication({
            id: 'app-2',
            fullName: 'Reviewed Person',
            status: 'approved',
            availabilityHours: null,
            socialMediaHandles: null,
            portfolioLinks: null,
            notes: 'Strong reel',
            reviewedBy: 'ops@clipit',
            reviewedAt: new Date(2025, 1, 10, 8, 5).toISOString(),
          }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Job applications' });
    const [first, second] = within(list).getAllByRole('article');
    const one = within(first!);
    expect(one.getByRole('heading', { name: 'Jordan Editor' })).toBeVisible();
    expect(one.getByRole('link', { name: 'jordan@example.com' })).toHaveAttribute('href', 'mailto:jordan@example.com');
    expect(one.getByText('Pending')).toBeVisible();
    expect(one.getByText('Feb 3, 2025 • 9:30 AM')).toBeVisible();
    expect(one.getByText('@jordan on X, @jordan.clips on TikTok')).toBeVisible();
    expect(one.getByText('25 hours per week')).toBeVisible();
    expect(one.getByText('Three years of cutting gaming streams into shorts.')).toBeVisible();
    expect(one.getByText('I want to clip for crypto streamers full time.')).toBeVisible();
    expect(one.getByText('https://example.com/portfolio')).toBeVisible();
    expect(one.getByText('Feb 4, 2025 • 10:00 AM')).toBeVisible();
    expect(one.getByText('app-1')).toBeVisible();
    const two = within(second!);
    expect(two.getByText('Approved')).toBeVisible();
    expect(two.getByText('Strong reel')).toBeVisible();
    expect(two.getByText('ops@clipit')).toBeVisible();
    expect(two.getByText('Feb 10, 2025 • 8:05 AM')).toBeVisible();
    // No action is offered.
    expect(within(list).queryAllByRole('button')).toEqual([]);
    expect(gateway.writes()).toEqual([]);
    expect(gateway.calls.find((c) => c.url.startsWith('/api/clipper-applications'))!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("a failed load says 'Failed to fetch applications' on the tab and in a toast with the server's text", async () => {
    await openTab((call) =>
      call.url.startsWith('/api/clipper-applications') ? { status: 503, text: 'Campaigns service unavailable' } : adminRoutes({})(call),
    );
    const panel = screen.getByRole('tabpanel', { name: /Job Applications/ });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Failed to fetch applications');
    const toasts = screen.getByRole('region', { name: 'Notifications (F8)' });
    expect(within(toasts).getByText('Failed to fetch applications')).toBeVisible();
    expect(within(toasts).getByText('Campaigns service unavailable')).toBeVisible();
  });

  it('says when nobody has applied', async () => {
    await openTab(adminRoutes({ applications: [] }));
    expect(await screen.findByText('No job applications yet.')).toBeVisible();
  });
});
