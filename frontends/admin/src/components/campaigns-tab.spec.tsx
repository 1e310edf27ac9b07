import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { renderScreen } from '@clipit/web-testing';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { AdminCampaign } from '../lib/campaign-view.js';
import AdminPage from '../screens/admin-page.js';
import {
  aCampaign,
  adminRoutes,
  deferred,
  fakeAdminGateway,
  restoreFetch,
  seedSession,
  TOKEN,
  type AdminHandler,
  type Reply,
} from '../testing/admin-gateway.js';

beforeEach(() => {
  sessionStorage.clear();
  seedSession();
});
afterEach(() => restoreFetch());

const toasts = () => screen.getByRole('region', { name: 'Notifications (F8)' });

async function openTab(handler: AdminHandler) {
  const gateway = fakeAdminGateway(handler);
  const rendered = renderScreen(<AdminPage />, '/admin');
  await userEvent.click(await screen.findByRole('tab', { name: /Campaigns/ }));
  return { gateway, ...rendered };
}

async function card(title: string) {
  const heading = await screen.findByRole('heading', { name: title });
  return heading.closest('article')!;
}

const buttonsOf = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('button')
    .map((b) => b.textContent)
    .filter((text) => text !== 'Show more' && text !== 'Show less');

/** The campaigns list over `list`, and the review routes answered by `review` (by default: the new state). */
function withReview(list: AdminCampaign[], review?: (call: { url: string; body: unknown }) => Reply | Promise<Reply>): AdminHandler {
  return (call) => {
    const match = /^\/api\/admin\/campaigns\/([^/]+)\/(approve|reject)$/.exec(call.url);
    if (call.method === 'POST' && match) {
      if (review) return review(call);
      const index = list.findIndex((c) => c.id === match[1]);
      const reason = (call.body as { reason?: string }).reason ?? null;
      list[index] = {
        ...list[index]!,
        status: match[2] === 'approve' ? 'approved' : 'rejected',
        rejectedReason: match[2] === 'reject' ? reason : null,
      };
      return { json: list[index] };
    }
    return adminRoutes({ campaigns: list })(call);
  };
}

describe('Campaigns (ADR 0027)', () => {
  it('lists each campaign with its streamer, figures, link, status, date and delivered-views progress', async () => {
    const long = 'A'.repeat(150) + ' and then the rest of a long brief that only shows when expanded.';
    const { gateway } = await openTab(
      adminRoutes({
        campaigns: [
          aCampaign({ description: long }),
          aCampaign({
            id: 'camp-2',
            title: 'Running one',
            status: 'approved',
            targetViews: 250_000,
            budgetAmount: 1250,
            deliveredViews: 61_700,
            progressPercent: 24.7,
            contentLink: null,
            streamerDisplayName: null,
            approvedAt: new Date(2025, 3, 3, 9, 0).toISOString(),
          }),
        ],
      }),
    );
    const first = within(await card('Launch week clips'));
    expect(first.getByText('Big Streamer @bigstreamer')).toBeVisible();
    expect(first.getByText('Pending')).toBeVisible();
    expect(first.getByText('100.0K')).toBeVisible();
    expect(first.getByText('$500')).toBeVisible();
    expect(first.getByText('Apr 2, 2025 • 2:45 PM')).toBeVisible();
    expect(first.getByRole('link', { name: /https:\/\/x\.com\/bigstreamer\/status\/1/ })).toHaveAttribute(
      'href',
      'https://x.com/bigstreamer/status/1',
    );
    expect(first.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(first.getByText('0.0%')).toBeVisible();
    // The description is cut until expanded.
    expect(first.queryByText(/only shows when expanded/)).toBeNull();
    await userEvent.click(first.getByRole('button', { name: 'Show more' }));
    expect(first.getByText(/only shows when expanded/)).toBeVisible();
    await userEvent.click(first.getByRole('button', { name: 'Show less' }));
    expect(first.queryByText(/only shows when expanded/)).toBeNull();
    expect(buttonsOf(await card('Launch week clips'))).toEqual(['Approve', 'Reject']);

    const second = await card('Running one');
    const two = within(second);
    expect(two.getByText('@bigstreamer')).toBeVisible();
    expect(two.getByText('Approved')).toBeVisible();
    expect(two.getByText('250.0K')).toBeVisible();
    expect(two.getByText('$1.3K')).toBeVisible();
    expect(two.getByText('61.7K / 250.0K views')).toBeVisible();
    expect(two.getByText('24.7%')).toBeVisible();
    expect(two.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '24.7');
    expect(two.getByText('Not provided')).toBeVisible();
    expect(two.getByText('Apr 3, 2025 • 9:00 AM')).toBeVisible();
    // Only a pending campaign can be reviewed.
    expect(buttonsOf(second)).toEqual([]);
    expect(gateway.calls.find((c) => c.url.startsWith('/api/admin/campaigns'))!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('filters by status through the query, and says when none has that status', async () => {
    const { gateway } = await openTab(
      adminRoutes({ campaigns: [aCampaign(), aCampaign({ id: 'camp-2', title: 'Done one', status: 'completed' })] }),
    );
    await card('Launch week clips');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'completed');
    await card('Done one');
    expect(screen.queryByRole('heading', { name: 'Launch week clips' })).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'rejected');
    expect(await screen.findByText('No rejected campaigns')).toBeVisible();
    const urls = gateway.calls.filter((c) => c.url.startsWith('/api/admin/campaigns')).map((c) => c.url);
    expect(urls).toContain('/api/admin/campaigns?limit=20&status=completed');
    expect(urls).toContain('/api/admin/campaigns?limit=20&status=rejected');
  });

  it('Approve: the POST with the token and an empty body, both buttons disabled while it runs, then the toast and the new state', async () => {
    const answer = deferred<Reply>();
    const list = [aCampaign()];
    const { gateway, queryClient } = await openTab(withReview(list, () => answer.promise));
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    const entry = await card('Launch week clips');
    await userEvent.click(within(entry).getByRole('button', { name: 'Approve' }));

    expect(within(entry).getByRole('button', { name: 'Approve' })).toBeDisabled();
    expect(within(entry).getByRole('button', { name: 'Reject' })).toBeDisabled();
    const post = gateway.calls.find((c) => c.method === 'POST')!;
    expect(post).toEqual({ method: 'POST', url: '/api/admin/campaigns/camp-1/approve', body: {}, authorization: `Bearer ${TOKEN}` });

    list[0] = { ...list[0]!, status: 'approved' };
    answer.resolve({ json: list[0] });
    expect(await within(toasts()).findByText('Campaign Approved')).toBeVisible();
    await waitFor(() => expect(buttonsOf(entry)).toEqual([]));
    expect(within(entry).getByText('Approved')).toBeVisible();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/admin/campaigns'] });
  });

  it('Reject asks for a reason, sends it, and toasts Campaign Rejected', async () => {
    const list = [aCampaign()];
    const { gateway } = await openTab(withReview(list));
    const entry = await card('Launch week clips');
    await userEvent.click(within(entry).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject Campaign' });
    expect(within(dialog).getByText(/The streamer sees the reason/)).toBeVisible();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Budget does not fit this brand');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject Campaign' }));
    expect(await within(toasts()).findByText('Campaign Rejected')).toBeVisible();
    expect(gateway.writes()).toEqual(['POST /api/admin/campaigns/camp-1/reject']);
    expect(gateway.calls.find((c) => c.method === 'POST')!.body).toEqual({ reason: 'Budget does not fit this brand' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(entry).findByText('Budget does not fit this brand')).toBeVisible();
  });

  it("a refused review toasts the server's text; without one, the spec's sentence", async () => {
    const list = [aCampaign(), aCampaign({ id: 'camp-2', title: 'Second one' })];
    let reply: Reply = { status: 409, text: 'This streamer already has a running campaign' };
    await openTab(withReview(list, () => reply));
    await userEvent.click(within(await card('Launch week clips')).getByRole('button', { name: 'Approve' }));
    expect(await within(toasts()).findByText('Failed to approve')).toBeVisible();
    expect(within(toasts()).getByText('This streamer already has a running campaign')).toBeVisible();

    reply = { networkError: true };
    await userEvent.click(within(await card('Second one')).getByRole('button', { name: 'Reject' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reject Campaign' }));
    expect(await within(toasts()).findByText('Failed to reject campaign')).toBeVisible();
    // The dialog stays open for another try.
    expect(screen.getByRole('dialog', { name: 'Reject Campaign' })).toBeVisible();
  });

  it("a failed load says 'Failed to fetch campaigns' on the tab and in a toast with the server's text", async () => {
    await openTab((call) =>
      call.url.startsWith('/api/admin/campaigns')
        ? { status: 503, text: 'The campaigns service is unavailable right now. Please try again shortly.' }
        : adminRoutes({})(call),
    );
    const panel = screen.getByRole('tabpanel', { name: /Campaigns/ });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Failed to fetch campaigns');
    expect(within(toasts()).getByText('Failed to fetch campaigns')).toBeVisible();
    expect(within(toasts()).getByText('The campaigns service is unavailable right now. Please try again shortly.')).toBeVisible();
  });

  it('says when there is no campaign yet, and refetches every 30 s', async () => {
    const { queryClient } = await openTab(adminRoutes({ campaigns: [] }));
    expect(await screen.findByText('No campaigns yet')).toBeVisible();
    const query = queryClient.getQueryCache().find({ queryKey: ['/api/admin/campaigns', 'all'] })!;
    expect(query.observers.map((o) => o.options.refetchInterval)).toContain(30_000);
  });
});
