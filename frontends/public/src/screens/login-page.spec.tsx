import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from '@clipit/router';
import { ToastProvider } from '@clipit/ui';
import { authProvidersKey, createQueryClient } from '@clipit/web-api';
import { QueryClientProvider } from '@tanstack/react-query';
import { userEvent } from '@testing-library/user-event';
import { fullNavigation } from '../lib/navigation.js';
import { fakeGateway, renderScreen, type Handler } from '@clipit/web-testing';
import { RESET_LINK_MESSAGES } from '@clipit/field-rules';
import LoginPage from './login-page.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
let assign: jest.SpiedFunction<typeof fullNavigation.assign>;

beforeEach(() => {
  assign = jest.spyOn(fullNavigation, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  assign.mockRestore();
});

function setup(handler?: Handler) {
  const gateway = fakeGateway(handler);
  const rendered = renderScreen(<LoginPage />, '/login');
  return { gateway, user: userEvent.setup(), ...rendered };
}

const signupForm = () => screen.getByRole('form', { name: 'Sign Up' });

async function fillSignup(user: ReturnType<typeof userEvent.setup>, overrides: Partial<Record<string, string>> = {}) {
  const form = signupForm();
  const values = {
    Email: 'alice@example.com',
    'Twitter Handle': 'alice',
    'Solana Wallet': WALLET,
    Password: 'correct horse',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values))
    if (value) await user.type(within(form).getByLabelText(label, { exact: true }), value);
  await user.type(within(form).getByLabelText('Confirm Password'), overrides['Confirm Password'] ?? 'correct horse');
}

describe('/login: sign up', () => {
  it('shows the spec’s message under each field and calls nothing when the form is invalid', async () => {
    const { user, gateway } = setup();
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await user.type(within(signupForm()).getByLabelText('Email'), 'not-an-email');
    await user.type(within(signupForm()).getByLabelText('Solana Wallet'), 'tooshort');
    await user.type(within(signupForm()).getByLabelText('Password', { exact: true }), 'correct horse');
    await user.type(within(signupForm()).getByLabelText('Confirm Password'), 'correct horsf');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    for (const message of [
      'Please enter a valid email address',
      'Twitter handle is required',
      'Please enter a valid Solana wallet address',
      'Please select a role',
      "Passwords don't match",
    ]) {
      expect(screen.getByText(message)).toBeVisible();
    }
    expect(within(signupForm()).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(gateway.calls.filter((c) => c.url !== '/api/auth/providers')).toEqual([]);
  });

  it('offers the claim code (upper-cased as typed) and token link to streamers only', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.queryByLabelText(/Claim Code/)).toBeNull();
    expect(screen.queryByLabelText(/Token Link/)).toBeNull();
    await user.selectOptions(screen.getByLabelText('Role'), 'streamer');
    const claim = screen.getByLabelText(/Claim Code/);
    expect(claim).toHaveAttribute('placeholder', 'CLAIM-XXXXXXXX');
    await user.type(claim, 'claim-ab12cd34');
    expect(claim).toHaveValue('CLAIM-AB12CD34');
    await user.type(screen.getByLabelText(/Token Link/), 'not a url');
    await fillSignup(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Please enter a valid URL')).toBeVisible();
  });

  it('sends JSON without the confirmation, toasts the claimed profile and goes to the dashboard', async () => {
    const { user, gateway, queryClient } = setup(() => ({
      status: 201,
      json: { user: { id: 'u1' }, claimedProfile: { displayName: 'Big Streamer' } },
    }));
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await user.selectOptions(screen.getByLabelText('Role'), 'streamer');
    await user.type(screen.getByLabelText(/Claim Code/), 'claim-ab12cd34');
    await user.type(screen.getByLabelText('Display Name (optional)'), 'Alice');
    await fillSignup(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Account created successfully!')).toBeVisible();
    expect(screen.getByText('Profile claimed! Welcome, Big Streamer. Redirecting...')).toBeVisible();
    expect(gateway.writes()).toEqual([
      {
        method: 'POST',
        url: '/api/auth/signup',
        body: {
          email: 'alice@example.com',
          displayName: 'Alice',
          twitterHandle: 'alice',
          walletAddress: WALLET,
          role: 'streamer',
          tokenLink: '',
          claimCode: 'CLAIM-AB12CD34',
          password: 'correct horse',
        },
      },
    ]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/user/me'] });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/clippers/dashboard'), { timeout: 3000 });
  });

  it('sends multipart with the picture when one is chosen, and refuses a file that is not an image', async () => {
    const { user, gateway } = setup(() => ({ status: 201, json: { user: { id: 'u1' } } }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    const picker = screen.getByLabelText('Profile Picture (optional)');
    expect(picker).toHaveAttribute('accept', 'image/*');
    await userEvent.setup({ applyAccept: false }).upload(picker, new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    expect(screen.getByText('Please choose an image file')).toBeVisible();
    await user.upload(picker, new File(['png'], 'me.png', { type: 'image/png' }));
    expect(screen.queryByText('Please choose an image file')).toBeNull();
    expect(screen.getByText('me.png')).toBeVisible();
    await user.selectOptions(screen.getByLabelText('Role'), 'clipper');
    await fillSignup(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Welcome to CLIP IT. Redirecting...')).toBeVisible();
    const [call] = gateway.writes();
    expect(call?.body).toBeInstanceOf(FormData);
    const sent = call!.body as FormData;
    expect(sent.get('twitterHandle')).toBe('alice');
    expect(sent.get('role')).toBe('clipper');
    expect(sent.has('confirmPassword')).toBe(false);
    expect((sent.get('profilePicture') as File).name).toBe('me.png');
  });

  it('toasts the server’s "status: text" when the account cannot be created, and stays', async () => {
    const { user } = setup(() => ({ status: 409, text: 'That Twitter handle is already registered' }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await user.selectOptions(screen.getByLabelText('Role'), 'clipper');
    await fillSignup(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Failed to create account')).toBeVisible();
    expect(screen.getByText('409: That Twitter handle is already registered')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Create Account' })).not.toHaveAttribute('aria-busy');
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('/login: log in', () => {
  it('needs a handle and a password before calling', async () => {
    const { user, gateway } = setup();
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByText('Twitter handle is required')).toBeVisible();
    expect(screen.getByText('Password is required')).toBeVisible();
    expect(gateway.calls.filter((c) => c.url !== '/api/auth/providers')).toEqual([]);
  });

  it('logs in, welcomes back by handle, and goes to the dashboard; the password can be shown', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { user, gateway } = setup(async () => {
      await answered;
      return { json: { user: { twitterUsername: 'alice' } } };
    });
    await user.type(screen.getByLabelText('Twitter Handle'), 'Alice');
    const password = screen.getByLabelText('Password');
    await user.type(password, 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    const pending = screen.getByRole('button', { name: /Logging in/ });
    expect(pending).toHaveAttribute('aria-busy', 'true');
    expect(pending).toHaveAttribute('aria-disabled', 'true');
    release();
    expect(await screen.findByText('Logged in successfully!')).toBeVisible();
    expect(screen.getByText('Welcome back, @alice')).toBeVisible();
    expect(gateway.writes()).toEqual([
      { method: 'POST', url: '/api/auth/login', body: { twitterHandle: 'Alice', password: 'correct horse' } },
    ]);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/clippers/dashboard'), { timeout: 3000 });
  });

  it('toasts a failed login', async () => {
    const { user } = setup(() => ({ status: 401, text: 'Invalid Twitter handle or password' }));
    await user.type(screen.getByLabelText('Twitter Handle'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Failed to log in')).toBeVisible();
    expect(screen.getByText('401: Invalid Twitter handle or password')).toBeVisible();
  });
});

describe('/login: identity too busy to hash (503 with Retry-After, ADR 0044)', () => {
  const BUSY = 'Too many sign-ins right now; please try again in 1 second';

  it('tries the log-in again after the seconds asked, the button busy meanwhile, and signs in', async () => {
    let calls = 0;
    const { user, gateway } = setup((call) => {
      if (call.method === 'GET') return { status: 404, text: 'No such route' };
      return (calls += 1) === 1
        ? { status: 503, text: BUSY, headers: { 'Retry-After': '1' } }
        : { json: { user: { twitterUsername: 'alice' } } };
    });
    await user.type(screen.getByLabelText('Twitter Handle'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(calls).toBe(1));
    expect(screen.getByRole('button', { name: /Logging in/ })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Failed to log in')).toBeNull();
    expect(await screen.findByText('Logged in successfully!', {}, { timeout: 3000 })).toBeVisible();
    expect(gateway.writes()).toEqual([
      { method: 'POST', url: '/api/auth/login', body: { twitterHandle: 'alice', password: 'correct horse' } },
      { method: 'POST', url: '/api/auth/login', body: { twitterHandle: 'alice', password: 'correct horse' } },
    ]);
  });

  it('gives up after a few tries and shows the server’s text; the form can be sent again', async () => {
    const text = 'Too many sign-ups right now; please try again in 0 seconds';
    const { user, gateway } = setup((call) =>
      call.method === 'GET' ? { status: 404, text: 'No such route' } : { status: 503, text, headers: { 'Retry-After': '0' } },
    );
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await user.selectOptions(screen.getByLabelText('Role'), 'clipper');
    await fillSignup(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Failed to create account')).toBeVisible();
    expect(screen.getByText(`503: ${text}`)).toBeVisible();
    expect(gateway.writes()).toHaveLength(4);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Account' })).not.toHaveAttribute('aria-busy'));
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('/login: reset password', () => {
  it('checks the confirmation, asks for the reset link, says to check the email, closes and clears', async () => {
    const { user, gateway } = setup(() => ({ json: { message: RESET_LINK_MESSAGES.sent } }));
    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    await user.type(within(dialog).getByLabelText('Twitter Handle'), 'alice');
    await user.type(within(dialog).getByLabelText('Email'), 'alice@example.com');
    await user.type(within(dialog).getByLabelText('New Password'), 'brand new pw');
    await user.type(within(dialog).getByLabelText('Confirm New Password'), 'brand new px');
    await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(within(dialog).getByText("Passwords don't match")).toBeVisible();
    expect(gateway.calls.filter((c) => c.url !== '/api/auth/providers')).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Confirm New Password'));
    await user.type(within(dialog).getByLabelText('Confirm New Password'), 'brand new pw');
    await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    // Nothing is reset yet: the mailed link applies it (ADR 0031).
    expect(await screen.findByText('Check your email')).toBeVisible();
    expect(screen.getByText(RESET_LINK_MESSAGES.sent)).toBeVisible();
    expect(screen.queryByText('Password reset successfully!')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(gateway.writes()).toEqual([
      {
        method: 'POST',
        url: '/api/auth/reset-password',
        body: { twitterHandle: 'alice', email: 'alice@example.com', newPassword: 'brand new pw' },
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    expect(within(screen.getByRole('dialog')).getByLabelText('Twitter Handle')).toHaveValue('');
  });

  it('toasts a failed reset and keeps the dialog; Cancel closes and clears', async () => {
    const { user } = setup(() => ({ status: 429, text: 'Too many attempts. Please wait a few minutes and try again.' }));
    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    await user.type(within(dialog).getByLabelText('Twitter Handle'), 'alice');
    await user.type(within(dialog).getByLabelText('Email'), 'alice@example.com');
    await user.type(within(dialog).getByLabelText('New Password'), 'brand new pw');
    await user.type(within(dialog).getByLabelText('Confirm New Password'), 'brand new pw');
    await user.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password')).toBeVisible();
    expect(screen.getByText('429: Too many attempts. Please wait a few minutes and try again.')).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    expect(within(screen.getByRole('dialog')).getByLabelText('Email')).toHaveValue('');
  });
});

describe('/login: sign in with X (ADR 0028)', () => {
  /** The page at an address with a query (renderScreen routes a bare path), inside the shell's providers. */
  function renderAt(entry: string) {
    const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], { initialEntries: [entry] });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    return router;
  }

  it('is a full-page navigation to /api/login when X is available', async () => {
    const { user, gateway } = setup((call) =>
      call.url === '/api/auth/providers' ? { json: { x: { available: true } } } : { status: 401, text: 'Not signed in' },
    );
    await user.click(await screen.findByRole('button', { name: 'Sign in with X' }));
    expect(assign).toHaveBeenCalledWith('/api/login');
    expect(gateway.calls.filter((c) => c.url === '/api/auth/providers')).toHaveLength(1);
  });

  it('offers no X button (nor its “or”) when the platform has no X app: the password forms are all there is', async () => {
    const { queryClient } = setup((call) =>
      call.url === '/api/auth/providers' ? { json: { x: { available: false } } } : { status: 404, text: 'No such route' },
    );
    await waitFor(() => expect(queryClient.getQueryData(authProvidersKey)).toEqual({ x: { available: false } }));
    expect(screen.getByRole('form', { name: 'Login' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Sign in with X/ })).toBeNull();
    expect(screen.queryByText(/not available/)).toBeNull();
    expect(screen.queryByText('or')).toBeNull();
  });

  it('toasts the reason of a failed sign-in from /login?error=<code>, then takes the code out of the address', async () => {
    fakeGateway(() => ({ json: { x: { available: true } } }));
    const router = renderAt('/login?error=x-denied&from=x');
    expect(await screen.findByText('Login Error')).toBeVisible();
    expect(screen.getByText('You cancelled signing in with X. Nothing was changed.')).toBeVisible();
    await waitFor(() => expect(router.history.location.search).toBe('?from=x'));
    expect(screen.getAllByText('Login Error')).toHaveLength(1);
  });

  it('says something useful for a code it does not know, never the raw code', async () => {
    fakeGateway(() => ({ json: { x: { available: true } } }));
    const router = renderAt('/login?error=%3Cscript%3E');
    expect(await screen.findByText('Signing in with X failed. Please try again.')).toBeVisible();
    expect(screen.queryByText('<script>')).toBeNull();
    await waitFor(() => expect(router.history.location.search).toBe(''));
  });
});
