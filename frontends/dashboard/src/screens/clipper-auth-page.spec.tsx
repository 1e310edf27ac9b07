import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fullNavigation } from '../lib/navigation.js';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { authProvidersKey } from '@clipit/web-api';
import ClipperAuthPage from './clipper-auth-page.js';

let assign: jest.SpiedFunction<typeof fullNavigation.assign>;
beforeEach(() => {
  assign = jest.spyOn(fullNavigation, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  assign.mockRestore();
});

describe('/clippers/auth (spec 02 §2.1)', () => {
  it('shows sign-in, the four tiers, how it works and a way home to a signed-out visitor', async () => {
    fakeGateway(() => ({ status: 401, text: 'Not signed in' }));
    renderScreen(<ClipperAuthPage />, '/clippers/auth');
    const signIn = await screen.findByRole('button', { name: 'Sign in with Twitter' });
    const tiers = screen.getByRole('list', { name: 'Clipper tiers' });
    expect(
      within(tiers)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Bronze', 'Silver', 'Gold', 'Diamond']);
    for (const text of ['New clippers', 'Consistent performers', 'High-quality creators', 'Elite viral content'])
      expect(within(tiers).getByText(text)).toBeVisible();
    expect(screen.getByRole('heading', { name: 'How It Works' })).toBeVisible();
    for (const step of ['Create Clips', 'Get Approved', 'Earn & Level Up'])
      expect(screen.getByRole('heading', { name: step })).toBeVisible();
    expect(screen.getByRole('link', { name: /Back to Home/ })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Apply to join the team' })).toHaveAttribute('href', '/clippers/apply');
    await userEvent.click(signIn);
    expect(assign).toHaveBeenCalledWith('/api/login');
  });

  it('sends a signed-in visitor to the dashboard', async () => {
    fakeGateway(() => ({ json: { id: 'u1', twitterUsername: 'alice' } }));
    renderScreen(<ClipperAuthPage />, '/clippers/auth');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/clippers/dashboard'));
    expect(screen.queryByRole('button', { name: 'Sign in with Twitter' })).toBeNull();
  });
});

describe('/clippers/auth: sign in with X availability (ADR 0028)', () => {
  it('keeps the spec’s button on a platform without an X app, and it opens the password sign-in at /login', async () => {
    fakeGateway((call) =>
      call.url === '/api/auth/providers' ? { json: { x: { available: false } } } : { status: 401, text: 'Not signed in' },
    );
    const { queryClient } = renderScreen(<ClipperAuthPage />, '/clippers/auth');
    const button = await screen.findByRole('button', { name: 'Sign in with Twitter' });
    await waitFor(() => expect(queryClient.getQueryData(authProvidersKey)).toEqual({ x: { available: false } }));
    expect(button).toBeEnabled();
    expect(screen.queryByText(/not available/)).toBeNull();
    await userEvent.click(button);
    // /login is a route of the site (the shell's router): here the memory router's catch-all.
    expect(await screen.findByText('elsewhere')).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
  });
});
