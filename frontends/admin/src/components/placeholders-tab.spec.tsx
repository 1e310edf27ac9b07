import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { renderScreen } from '@clipit/web-testing';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PlaceholderStreamer } from '@clipit/web-api';
import AdminPage from '../screens/admin-page.js';
import {
  adminRoutes,
  aPlaceholder,
  fakeAdminGateway,
  restoreFetch,
  seedSession,
  TOKEN,
  type AdminHandler,
  type Reply,
} from '../testing/admin-gateway.js';

const writeText = jest.fn<(text: string) => Promise<void>>();

beforeEach(() => {
  sessionStorage.clear();
  seedSession();
  writeText.mockReset().mockResolvedValue(undefined);
  // userEvent.setup() installs its own clipboard stub; these specs use the direct API, so the page sees this one.
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => restoreFetch());

const toasts = () => screen.getByRole('region', { name: 'Notifications (F8)' });

async function openTab(handler: AdminHandler) {
  const gateway = fakeAdminGateway(handler);
  renderScreen(<AdminPage />, '/admin');
  await userEvent.click(await screen.findByRole('tab', { name: /Placeholder Streamers/ }));
  return gateway;
}

function withCreate(list: PlaceholderStreamer[], create: (body: unknown) => Reply): AdminHandler {
  const routes = adminRoutes({ placeholders: list });
  return (call) => (call.method === 'POST' && call.url === '/api/admin/placeholder-streamers' ? create(call.body) : routes(call));
}

const form = () => screen.getByRole('form', { name: 'Create placeholder streamer' });

describe('Placeholder Streamers (spec 02 §2.4, §5, §8)', () => {
  it('lists each profile with its handle, multiplier and claim code; a claimed one says who claimed it and when', async () => {
    await openTab(
      adminRoutes({
        placeholders: [
          aPlaceholder(),
          aPlaceholder({
            id: 'ph-2',
            displayName: 'Claimed Streamer',
            twitterUsername: 'claimedone',
            streamerMultiplier: '2.00',
            claimCode: 'CLAIM-ZZZZ9999',
            claimedBy: 'user-9',
            claimedAt: new Date(2025, 3, 2, 18, 45).toISOString(),
            claimedByDisplayName: 'Real Streamer',
            claimedByHandle: 'realstreamer',
          }),
        ],
      }),
    );
    expect(screen.getByRole('tab', { name: /Placeholder Streamers/ })).toHaveTextContent('Placeholder Streamers 2');
    const list = await screen.findByRole('list', { name: 'Placeholder streamers' });
    const [first, second] = within(list).getAllByRole('article');
    expect(within(first!).getByRole('heading', { name: 'Big Streamer' })).toBeVisible();
    expect(within(first!).getByText('@bigstreamer')).toBeVisible();
    expect(within(first!).getByText('1.50x')).toBeVisible();
    expect(within(first!).getByText('CLAIM-ABCD1234')).toBeVisible();
    expect(within(first!).getByText('Unclaimed')).toBeVisible();
    expect(within(second!).getByText('Claimed by Real Streamer (@realstreamer) on Apr 2, 2025 • 6:45 PM')).toBeVisible();
  });

  it("Copy puts the claim code on the clipboard: 'Copied to clipboard', or 'Failed to copy'", async () => {
    await openTab(adminRoutes({ placeholders: [aPlaceholder()] }));
    await userEvent.click(await screen.findByRole('button', { name: 'Copy claim code CLAIM-ABCD1234' }));
    expect(writeText).toHaveBeenCalledWith('CLAIM-ABCD1234');
    expect(await within(toasts()).findByText('Copied to clipboard')).toBeVisible();

    writeText.mockRejectedValueOnce(new Error('denied'));
    await userEvent.click(screen.getByRole('button', { name: 'Copy claim code CLAIM-ABCD1234' }));
    expect(await within(toasts()).findByText('Failed to copy')).toBeVisible();
    expect(within(toasts()).getByText('Unable to copy to clipboard')).toBeVisible();
  });

  it('checks the form with the spec’s rules before sending anything', async () => {
    const gateway = await openTab(adminRoutes({}));
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Placeholder' }));
    expect(within(form()).getByText('Display name is required')).toBeVisible();
    expect(within(form()).getByText('Twitter username is required')).toBeVisible();
    expect(within(form()).getByLabelText('Streamer Multiplier')).toHaveValue(1);

    await userEvent.type(within(form()).getByLabelText(/Twitter Username/), 'not a handle!');
    await userEvent.type(within(form()).getByLabelText('Profile Image URL (optional)'), 'ftp://nope');
    await userEvent.type(within(form()).getByLabelText('Banner Image URL (optional)'), 'nope');
    const multiplier = within(form()).getByLabelText('Streamer Multiplier');
    await userEvent.clear(multiplier);
    await userEvent.type(multiplier, '2.5');
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Placeholder' }));
    expect(
      within(form()).getByText('Twitter handle can only contain letters, numbers and underscores (at most 15 characters)'),
    ).toBeVisible();
    expect(within(form()).getByText('Profile image URL must be a valid http(s) URL or an uploaded image')).toBeVisible();
    expect(within(form()).getByText('Banner image URL must be a valid http(s) URL or an uploaded image')).toBeVisible();
    expect(within(form()).getByText('Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01')).toBeVisible();
    expect(gateway.writes()).toEqual([]);
  });

  it("creates the profile (handle without '@'), toasts 'Placeholder Streamer Created' with the claim code and shows it to copy", async () => {
    const list: PlaceholderStreamer[] = [];
    const created = aPlaceholder({
      id: 'new',
      displayName: 'New Streamer',
      twitterUsername: 'newstreamer',
      streamerMultiplier: '1.25',
      claimCode: 'CLAIM-NEW00001',
    });
    const gateway = await openTab(
      withCreate(list, () => {
        list.unshift(created);
        return { status: 201, json: created };
      }),
    );
    expect(await screen.findByText('No placeholder streamers yet.')).toBeVisible();
    await userEvent.type(within(form()).getByLabelText(/Display Name/), 'New Streamer');
    await userEvent.type(within(form()).getByLabelText(/Twitter Username/), '@newstreamer');
    await userEvent.type(within(form()).getByLabelText('Profile Image URL (optional)'), 'https://example.com/p.png');
    const multiplier = within(form()).getByLabelText('Streamer Multiplier');
    await userEvent.clear(multiplier);
    await userEvent.type(multiplier, '1.25');
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Placeholder' }));

    expect(await within(toasts()).findByText('Placeholder Streamer Created')).toBeVisible();
    expect(within(toasts()).getByText('Claim code: CLAIM-NEW00001')).toBeVisible();
    const post = gateway.calls.find((c) => c.method === 'POST')!;
    expect(post).toEqual({
      method: 'POST',
      url: '/api/admin/placeholder-streamers',
      body: {
        displayName: 'New Streamer',
        twitterUsername: 'newstreamer',
        profileImageUrl: 'https://example.com/p.png',
        streamerMultiplier: '1.25',
      },
      authorization: `Bearer ${TOKEN}`,
    });
    const notice = screen.getByText(/Share this claim code with the streamer/).closest('[role="status"]') as HTMLElement;
    expect(within(notice).getByText('CLAIM-NEW00001')).toBeVisible();
    await userEvent.click(within(notice).getByRole('button', { name: 'Copy claim code CLAIM-NEW00001' }));
    expect(writeText).toHaveBeenCalledWith('CLAIM-NEW00001');
    await waitFor(() => expect(screen.getByRole('tab', { name: /Placeholder Streamers/ })).toHaveTextContent('Placeholder Streamers 1'));
    // The form is empty again, the multiplier back to its default.
    expect(within(form()).getByLabelText(/Display Name/)).toHaveValue('');
    expect(within(form()).getByLabelText('Streamer Multiplier')).toHaveValue(1);
  });

  it("a refusal toasts the server's text", async () => {
    await openTab(withCreate([], () => ({ status: 409, text: 'That Twitter handle is already registered' })));
    await userEvent.type(within(form()).getByLabelText(/Display Name/), 'Dup');
    await userEvent.type(within(form()).getByLabelText(/Twitter Username/), 'taken');
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Placeholder' }));
    expect(await within(toasts()).findByText('Failed to create placeholder streamer')).toBeVisible();
    expect(within(toasts()).getByText('That Twitter handle is already registered')).toBeVisible();
  });
});
