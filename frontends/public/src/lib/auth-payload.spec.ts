import { describe, expect, it } from '@jest/globals';
import { loginBody, loginWelcome, resetPasswordBody, signupBody, signupRequestBody, signupWelcome } from './auth-payload.js';
import { emptySignupForm, type SignupForm } from './validation.js';

const form: SignupForm = {
  ...emptySignupForm,
  email: ' alice@example.com ',
  displayName: ' Alice ',
  twitterHandle: ' @alice ',
  walletAddress: ' 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU ',
  role: 'streamer',
  tokenLink: 'https://pump.fun/coin/abc',
  claimCode: 'claim-ab12cd34',
  password: ' secret pass ',
  confirmPassword: ' secret pass ',
};

describe('sign-up body (spec 01 §7)', () => {
  it('sends the fields trimmed (never the password) and never the confirmation', () => {
    expect(signupBody(form)).toEqual({
      email: 'alice@example.com',
      displayName: 'Alice',
      twitterHandle: '@alice',
      walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      role: 'streamer',
      tokenLink: 'https://pump.fun/coin/abc',
      claimCode: 'CLAIM-AB12CD34',
      password: ' secret pass ',
    });
  });

  it('leaves the streamer-only fields empty for a clipper', () => {
    expect(signupBody({ ...form, role: 'clipper' })).toMatchObject({ role: 'clipper', tokenLink: '', claimCode: '' });
  });

  it('is JSON without a picture, and multipart (same fields + profilePicture) with one', () => {
    expect(signupRequestBody(form, null)).toEqual(signupBody(form));
    const picture = new File(['png'], 'me.png', { type: 'image/png' });
    const data = signupRequestBody(form, picture);
    expect(data).toBeInstanceOf(FormData);
    const entries = Object.fromEntries((data as FormData).entries());
    expect(Object.keys(entries).sort()).toEqual([...Object.keys(signupBody(form)), 'profilePicture'].sort());
    expect(entries.confirmPassword).toBeUndefined();
    expect(entries.email).toBe('alice@example.com');
    expect((entries.profilePicture as File).name).toBe('me.png');
  });
});

describe('login and reset bodies', () => {
  it('login: handle and password; reset: handle, email, new password (no confirmation)', () => {
    expect(loginBody({ twitterHandle: ' alice ', password: 'pw' })).toEqual({ twitterHandle: 'alice', password: 'pw' });
    expect(
      resetPasswordBody({ twitterHandle: ' alice', email: 'a@b.co ', newPassword: 'new pass 1', confirmPassword: 'new pass 1' }),
    ).toEqual({
      twitterHandle: 'alice',
      email: 'a@b.co',
      newPassword: 'new pass 1',
    });
  });
});

describe('success toasts (spec 01 §8)', () => {
  it('welcomes a claimed profile by name, anyone else to CLIP IT', () => {
    expect(signupWelcome({ claimedProfile: { displayName: 'Big Streamer' } })).toBe(
      'Profile claimed! Welcome, Big Streamer. Redirecting...',
    );
    expect(signupWelcome({})).toBe('Welcome to CLIP IT. Redirecting...');
    expect(signupWelcome(undefined)).toBe('Welcome to CLIP IT. Redirecting...');
  });

  it('welcomes back by the server’s handle, else the one typed', () => {
    expect(loginWelcome({ user: { twitterUsername: 'alice' } }, 'ALICE')).toBe('Welcome back, @alice');
    expect(loginWelcome({ user: null }, ' @bob ')).toBe('Welcome back, @bob');
  });
});
