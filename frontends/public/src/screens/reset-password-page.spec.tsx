import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Handler } from '@clipit/web-testing';
import ResetPasswordPage from './reset-password-page.js';
import VerifyEmailPage from './verify-email-page.js';

const TOKEN = 'Ab1_-'.repeat(8) + 'xyz';

/** A link page opened at `entry` (with its #token=…), inside the shell's providers. */
function open(entry: string, handler?: Handler) {
  const gateway = fakeGateway(handler);
  const [path] = entry.split('#');
  renderScreen(path === '/verify-email' ? <VerifyEmailPage /> : <ResetPasswordPage />, path, entry);
  return { gateway, user: userEvent.setup() };
}

describe('/reset-password (the page a reset link opens)', () => {
  it('changes nothing until confirmed; then posts the token from the fragment, toasts the spec’s words and goes to /login', async () => {
    const { gateway, user } = open(`/reset-password#token=${TOKEN}`, () => ({ json: { message: 'Password reset successfully' } }));
    expect(screen.getByRole('heading', { name: 'Set Your New Password' })).toBeVisible();
    expect(gateway.writes()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Confirm New Password' }));
    expect(await screen.findByText('Password reset successfully!')).toBeVisible();
    expect(screen.getByText('You can now log in with your new password.')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/auth/reset-password/confirm', body: { token: TOKEN } }]);
    expect(await screen.findByText('elsewhere')).toBeVisible(); // /login
  });

  it('says why a link cannot be used: the gateway’s text for a spent one, its own for a broken one', async () => {
    const { user } = open(`/reset-password#token=${TOKEN}`, () => ({
      status: 400,
      text: 'This password reset link is invalid or has expired',
    }));
    await user.click(screen.getByRole('button', { name: 'Confirm New Password' }));
    expect(await screen.findByText('Failed to reset password')).toBeVisible();
    expect(screen.getByText('This link cannot be used').parentElement).toHaveTextContent(
      '400: This password reset link is invalid or has expired',
    );
    expect(screen.queryByRole('button', { name: 'Confirm New Password' })).toBeNull();
  });

  it('offers no confirmation for a link without a usable token, and sends nothing', () => {
    const { gateway } = open('/reset-password#token=cut-short');
    expect(screen.getByText('This link cannot be used').parentElement).toHaveTextContent(
      'This password reset link is invalid or has expired',
    );
    expect(screen.queryByRole('button', { name: 'Confirm New Password' })).toBeNull();
    expect(gateway.writes()).toEqual([]);
  });
});

describe('/verify-email (the page the sign-up link opens)', () => {
  it('confirms the address with the token from the fragment', async () => {
    const { gateway, user } = open(`/verify-email#token=${TOKEN}`, () => ({ json: { message: 'Email address confirmed' } }));
    await user.click(screen.getByRole('button', { name: 'Confirm Email Address' }));
    expect(await screen.findByText('Email address confirmed')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/auth/verify-email', body: { token: TOKEN } }]);
  });

  it('says why a link cannot be used', async () => {
    const { user } = open(`/verify-email#token=${TOKEN}`, () => ({
      status: 400,
      text: 'This verification link is invalid or has expired',
    }));
    await user.click(screen.getByRole('button', { name: 'Confirm Email Address' }));
    expect((await screen.findByText('This link cannot be used')).parentElement).toHaveTextContent(
      '400: This verification link is invalid or has expired',
    );
    expect(screen.queryByRole('button', { name: 'Confirm Email Address' })).toBeNull();
  });

  it('offers no confirmation without a usable token; a signed-in person asks for a new link there', async () => {
    const { gateway, user } = open('/verify-email', (call) =>
      call.url === '/api/user/me'
        ? { json: { id: 'u1', twitterUsername: 'alice' } }
        : { json: { sent: true, message: 'We sent a new confirmation link to your email address' } },
    );
    expect(screen.getByText('This link cannot be used').parentElement).toHaveTextContent(
      'This verification link is invalid or has expired',
    );
    expect(screen.queryByRole('button', { name: 'Confirm Email Address' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Send a New Link' }));
    expect(await screen.findByText('We sent a new confirmation link to your email address')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/auth/verify-email/send', body: undefined }]);
  });
});
