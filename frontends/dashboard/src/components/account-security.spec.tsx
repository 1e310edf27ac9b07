import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { currentUser } from '../testing/fixtures.js';
import { SessionsCard, VerifyEmailBanner, WalletCard } from './account-security.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const OTHER = 'So11111111111111111111111111111111111111112';
const withWallet = { ...currentUser, walletAddress: WALLET };

describe('the payout wallet (ADR 0032)', () => {
  it('adds a first wallet with nothing more asked', async () => {
    const gateway = fakeGateway(({ url }) =>
      url === '/api/user/profile' ? { json: { ...currentUser, walletAddress: OTHER } } : { json: {} },
    );
    renderScreen(<WalletCard user={currentUser} />);
    expect(screen.getByText('No wallet yet')).toBeVisible();
    expect(screen.queryByLabelText('Current Password')).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Solana Wallet Address' }), OTHER);
    await userEvent.click(screen.getByRole('button', { name: 'Save Wallet Address' }));
    expect(await screen.findByText('Wallet Added!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'PATCH', url: '/api/user/profile', body: { walletAddress: OTHER } }]);
  });

  it('changes a wallet with the current password, shows the server refusal at the password, and says payouts wait 72 hours', async () => {
    let attempt = 0;
    const gateway = fakeGateway(({ url }) => {
      if (url !== '/api/user/profile') return { json: {} };
      attempt += 1;
      return attempt === 1 ? { status: 403, text: 'Current password is incorrect' } : { json: { ...withWallet, walletAddress: OTHER } };
    });
    const { queryClient } = renderScreen(<WalletCard user={withWallet} />);
    expect(screen.getByText(WALLET)).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: 'New Solana Wallet Address' }), 'not a wallet');
    await userEvent.click(screen.getByRole('button', { name: 'Change Wallet' }));
    expect(screen.getByRole('textbox', { name: 'New Solana Wallet Address' })).toHaveAccessibleDescription(
      'Please enter a valid Solana wallet address',
    );
    expect(gateway.writes()).toEqual([]);

    await userEvent.clear(screen.getByRole('textbox', { name: 'New Solana Wallet Address' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'New Solana Wallet Address' }), OTHER);
    await userEvent.type(screen.getByLabelText('Current Password'), 'wrong one');
    await userEvent.click(screen.getByRole('button', { name: 'Change Wallet' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Current Password')).toHaveAccessibleDescription(
        expect.stringContaining('Current password is incorrect'),
      ),
    );

    await userEvent.clear(screen.getByLabelText('Current Password'));
    await userEvent.type(screen.getByLabelText('Current Password'), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Change Wallet' }));
    expect(await screen.findByText('Wallet Updated')).toBeVisible();
    expect(screen.getByText('Wallet updated. Payouts to the new wallet start 72 hours after a change.')).toBeVisible();
    expect(gateway.writes().at(-1)).toEqual({
      method: 'PATCH',
      url: '/api/user/profile',
      body: { walletAddress: OTHER, currentPassword: 'password123' },
    });
    expect(queryClient.getQueryData(['/api/user/me'])).toMatchObject({ walletAddress: OTHER });
  });

  it('offers a fresh sign-in with X when the account has no password', async () => {
    fakeGateway(({ url }) =>
      url === '/api/user/profile'
        ? { status: 403, text: 'Sign in with X again to change your wallet address: a change needs a sign-in from the last 10 minutes' }
        : url === '/api/auth/providers'
          ? { json: { x: { available: true } } }
          : { json: {} },
    );
    renderScreen(<WalletCard user={withWallet} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'New Solana Wallet Address' }), OTHER);
    await userEvent.click(screen.getByRole('button', { name: 'Change Wallet' }));
    const note = await screen.findByRole('alert');
    expect(note).toHaveTextContent('Sign in with X again to change your wallet address');
    expect(within(note).getByRole('button', { name: 'Sign in with X again' })).toBeVisible();
  });
});

describe('the sessions list (ADR 0032)', () => {
  const sessions = [
    {
      id: 'a',
      device: 'Chrome on macOS',
      address: '203.0.113.0/24',
      createdAt: '2026-11-20T10:00:00.000Z',
      lastSeenAt: '2026-11-27T09:00:00.000Z',
      method: 'password',
      current: true,
    },
    {
      id: 'b',
      device: 'Firefox on Linux',
      address: null,
      createdAt: '2026-11-21T10:00:00.000Z',
      lastSeenAt: '2026-11-22T09:00:00.000Z',
      method: 'x',
      current: false,
    },
  ];

  it('lists each session and signs out everywhere else', async () => {
    let listed = sessions;
    const gateway = fakeGateway(({ url }) => {
      if (url === '/api/user/sessions/sign-out-others') {
        listed = [sessions[0]!];
        return { json: { endedSessions: 1 } };
      }
      return url === '/api/user/sessions' ? { json: { sessions: listed } } : { json: {} };
    });
    renderScreen(<SessionsCard />);
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Chrome on macOS');
    expect(items[0]).toHaveTextContent('This device');
    expect(items[0]).toHaveTextContent('From 203.0.113.0/24 · Signed in with password');
    expect(items[1]).toHaveTextContent('Firefox on Linux');
    expect(items[1]).toHaveTextContent('Signed in with X');
    expect(items[1]).not.toHaveTextContent('This device');

    await userEvent.click(screen.getByRole('button', { name: 'Sign Out Everywhere Else' }));
    expect(await screen.findByText('1 other session was signed out.')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/user/sessions/sign-out-others', body: undefined }]);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Sign Out Everywhere Else' })).toBeDisabled();
  });
});

describe('the banner asking to confirm the e-mail address', () => {
  it('shows for an unconfirmed address and sends a new link', async () => {
    const gateway = fakeGateway(({ url }) =>
      url === '/api/auth/verify-email/send'
        ? { json: { sent: true, message: 'We sent a new confirmation link to your email address' } }
        : { json: {} },
    );
    renderScreen(<VerifyEmailBanner user={{ ...currentUser, emailVerified: false }} />);
    const banner = screen.getByRole('region', { name: 'Confirm your email address' });
    expect(banner).toHaveTextContent('We sent a confirmation link to ada@example.com.');
    await userEvent.click(within(banner).getByRole('button', { name: 'Send a New Link' }));
    expect(await screen.findByText('We sent a new confirmation link to your email address')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/auth/verify-email/send', body: undefined }]);
  });

  it('is not there once the address is confirmed, nor for an account without one', () => {
    fakeGateway();
    const { unmount } = renderScreen(<VerifyEmailBanner user={currentUser} />);
    expect(screen.queryByRole('region', { name: 'Confirm your email address' })).toBeNull();
    unmount();
    renderScreen(<VerifyEmailBanner user={{ ...currentUser, email: null, emailVerified: false }} />);
    expect(screen.queryByRole('region', { name: 'Confirm your email address' })).toBeNull();
  });
});
