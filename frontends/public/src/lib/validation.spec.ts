import { describe, expect, it } from '@jest/globals';
import {
  emptySignupForm,
  hasErrors,
  isImageFile,
  normalizeClaimCode,
  validateLogin,
  validateReset,
  validateSignup,
  type SignupForm,
} from './validation.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const valid: SignupForm = {
  ...emptySignupForm,
  email: 'alice@example.com',
  twitterHandle: 'alice',
  walletAddress: WALLET,
  role: 'clipper',
  password: 'correct horse',
  confirmPassword: 'correct horse',
};

describe('sign-up validation (spec 01 §5)', () => {
  it('accepts a complete form; display name, claim code and token link are optional', () => {
    expect(validateSignup(valid)).toEqual({});
    expect(hasErrors(validateSignup(valid))).toBe(false);
  });

  it('names every problem of an empty form in the spec’s words', () => {
    expect(validateSignup(emptySignupForm)).toEqual({
      email: 'Please enter a valid email address',
      twitterHandle: 'Twitter handle is required',
      walletAddress: 'Solana wallet address is required',
      role: 'Please select a role',
      password: 'Password must be at least 8 characters',
      confirmPassword: 'Password must be at least 8 characters',
    });
  });

  it('checks the email, wallet, token link and the confirmation', () => {
    expect(validateSignup({ ...valid, email: 'not-an-email' })).toEqual({ email: 'Please enter a valid email address' });
    expect(validateSignup({ ...valid, email: ' first.last+tag@sub.example.org ' })).toEqual({});
    expect(validateSignup({ ...valid, twitterHandle: '   ' })).toEqual({ twitterHandle: 'Twitter handle is required' });
    expect(validateSignup({ ...valid, twitterHandle: ' @ ' })).toEqual({ twitterHandle: 'Twitter handle is required' });
    expect(validateSignup({ ...valid, walletAddress: '' })).toEqual({ walletAddress: 'Solana wallet address is required' });
    expect(validateSignup({ ...valid, walletAddress: ` ${WALLET} ` })).toEqual({});
    expect(validateSignup({ ...valid, walletAddress: 'short' })).toEqual({ walletAddress: 'Please enter a valid Solana wallet address' });
    expect(validateSignup({ ...valid, role: 'streamer', tokenLink: 'pump dot fun' })).toEqual({ tokenLink: 'Please enter a valid URL' });
    expect(validateSignup({ ...valid, role: 'streamer', tokenLink: 'https://pump.fun/coin/abc' })).toEqual({});
    expect(validateSignup({ ...valid, confirmPassword: 'correct horsf' })).toEqual({ confirmPassword: "Passwords don't match" });
    expect(validateSignup({ ...valid, password: 'short', confirmPassword: 'short' })).toEqual({
      password: 'Password must be at least 8 characters',
      confirmPassword: 'Password must be at least 8 characters',
    });
    // The bound the gateway and identity enforce, said before the form is sent.
    const long = 'x'.repeat(257);
    expect(validateSignup({ ...valid, password: long, confirmPassword: long })).toEqual({
      password: 'Password must be at most 256 characters',
    });
  });
});

describe('login and reset validation', () => {
  it('login needs a handle and a password', () => {
    expect(validateLogin({ twitterHandle: '', password: '' })).toEqual({
      twitterHandle: 'Twitter handle is required',
      password: 'Password is required',
    });
    expect(validateLogin({ twitterHandle: 'alice', password: 'x' })).toEqual({});
  });

  it('reset needs a handle, a valid email, 8+ characters and a matching confirmation', () => {
    expect(validateReset({ twitterHandle: '', email: 'nope', newPassword: 'short', confirmPassword: 'other' })).toEqual({
      twitterHandle: 'Twitter handle is required',
      email: 'Please enter a valid email address',
      newPassword: 'Password must be at least 8 characters',
      confirmPassword: "Passwords don't match",
    });
    expect(validateReset({ twitterHandle: 'alice', email: 'a@b.co', newPassword: 'long enough', confirmPassword: 'long enough' })).toEqual(
      {},
    );
  });
});

// The wallet, email, handle and password rules themselves are @clipit/field-rules' (unit-tested there).
describe('form helpers', () => {
  it('claim codes are upper-cased as typed; pictures must be images', () => {
    expect(normalizeClaimCode('claim-ab12cd34')).toBe('CLAIM-AB12CD34');
    expect(isImageFile({ type: 'image/png' })).toBe(true);
    expect(isImageFile({ type: 'image/webp' })).toBe(true);
    expect(isImageFile({ type: 'application/pdf' })).toBe(false);
    expect(isImageFile({ type: '' })).toBe(false);
  });
});
