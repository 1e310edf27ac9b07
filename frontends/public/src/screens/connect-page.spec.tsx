import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fullNavigation } from '../lib/navigation.js';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import { authProvidersKey } from '@clipit/web-api';
import ConnectPage from './connect-page.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const me = (walletAddress: string | null) => ({ id: 'u1', twitterUsername: 'alice', walletAddress, role: 'clipper' });
let assign: jest.SpiedFunction<typeof fullNavigation.assign>;

beforeEach(() => {
  assign = jest.spyOn(fullNavigation, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  assign.mockRestore();
});

function setup(handler: (call: Call) => Reply | Promise<Reply>) {
  const gateway = fakeGateway(handler);
  const { queryClient } = renderScreen(<ConnectPage />, '/connect');
  return { gateway, queryClient, user: userEvent.setup() };
}

describe('/connect', () => {
  it('signed out: Login Required, Login with Twitter is a full redirect to /auth/twitter, and a way back', async () => {
    const { user } = setup(() => ({ status: 401, text: 'Not signed in' }));
    expect(await screen.findByRole('heading', { name: 'Login Required' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Login with Twitter' }));
    expect(assign).toHaveBeenCalledWith('/auth/twitter');
  });

  it('says so in a toast when the redirect fails', async () => {
    assign.mockImplementation(() => {
      throw new Error('blocked');
    });
    const { user } = setup(() => ({ status: 401, text: 'Not signed in' }));
    await user.click(await screen.findByRole('button', { name: 'Login with Twitter' }));
    expect(await screen.findByText('Login Error')).toBeVisible();
    expect(screen.getByText('Failed to redirect to Twitter login. Please try refreshing the page.')).toBeVisible();
  });

  it('fully connected: All Set! with links to submit and the leaderboard', async () => {
    setup(() => ({ json: me(WALLET) }));
    expect(await screen.findByRole('heading', { name: 'All Set!' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Submit a Post' })).toHaveAttribute('href', '/submit');
    expect(screen.getByRole('link', { name: 'View Leaderboard' })).toHaveAttribute('href', '/leaderboard');
  });

  it('needs a wallet: validates, saves, refreshes the user and shows All Set!', async () => {
    let wallet: string | null = null;
    let release!: () => void;
    const saved = new Promise<void>((resolve) => (release = resolve));
    const { user, gateway } = setup(async (call) => {
      if (call.method === 'PATCH') {
        await saved;
        wallet = (call.body as { walletAddress: string }).walletAddress;
        return { json: { user: me(wallet) } };
      }
      return { json: me(wallet) };
    });
    expect(await screen.findByRole('heading', { name: 'Add Wallet Address' })).toBeVisible();
    expect(screen.getByText('Twitter Connected')).toBeVisible();
    expect(screen.getByText(/This wallet receives your \$CLIP rewards/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Skip for Now' })).toHaveAttribute('href', '/leaderboard');

    const save = screen.getByRole('button', { name: 'Save Wallet Address' });
    await user.click(save);
    expect(screen.getByText('Wallet address is required')).toBeVisible();
    await user.type(screen.getByLabelText('Solana Wallet Address'), 'not-a-wallet');
    await user.click(save);
    expect(screen.getByText('Please enter a valid Solana wallet address')).toBeVisible();
    expect(gateway.writes()).toEqual([]);

    await user.clear(screen.getByLabelText('Solana Wallet Address'));
    await user.type(screen.getByLabelText('Solana Wallet Address'), WALLET);
    await user.click(save);
    expect(screen.getByRole('button', { name: /Saving\.\.\./ })).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByText('Wallet Added!')).toBeVisible();
    expect(screen.getByText('Your wallet address has been saved. You can now submit posts to the leaderboard.')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'All Set!' })).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'PATCH', url: '/api/user/profile', body: { walletAddress: WALLET } }]);
    expect(gateway.calls.filter((c) => c.url === '/api/user/me')).toHaveLength(2);
  });

  it('toasts Save Failed with the server’s message', async () => {
    const { user } = setup((call) =>
      call.method === 'PATCH' ? { status: 503, text: 'Service temporarily unavailable' } : { json: me(null) },
    );
    await user.type(await screen.findByLabelText('Solana Wallet Address'), WALLET);
    await user.click(screen.getByRole('button', { name: 'Save Wallet Address' }));
    expect(await screen.findByText('Save Failed')).toBeVisible();
    expect(within(screen.getByRole('alert')).getByText('503: Service temporarily unavailable')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Add Wallet Address' })).toBeVisible();
  });
});

describe('/connect: sign in with X availability (ADR 0028)', () => {
  it('signed out on a platform without an X app: Login with Twitter opens the password sign-in at /login', async () => {
    const { gateway, user, queryClient } = setup((call) =>
      call.url === '/api/auth/providers' ? { json: { x: { available: false } } } : { status: 401, text: 'Not signed in' },
    );
    expect(await screen.findByRole('heading', { name: 'Login Required' })).toBeVisible();
    await waitFor(() => expect(queryClient.getQueryData(authProvidersKey)).toEqual({ x: { available: false } }));
    expect(screen.queryByText(/not available/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Login with Twitter' }));
    // /login is a route of the site (the shell's router): here the memory router's catch-all.
    expect(await screen.findByText('elsewhere')).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
    expect(gateway.calls.filter((c) => c.url === '/api/auth/providers')).toHaveLength(1);
  });
});
