import { describe, expect, it } from '@jest/globals';
import { parseBody } from '../http/endpoint.js';
import { confirmResetBody, loginBody, resetPasswordBody, signupBody, verifyEmailBody } from './auth.schemas.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

const validSignup = {
  email: 'alice@example.com',
  displayName: 'Alice',
  twitterHandle: 'alice_01',
  walletAddress: WALLET,
  role: 'clipper',
  tokenLink: '',
  claimCode: '',
  password: 'correct horse',
};

/** The 400 text a body gets, or 'ok'. */
function messageFor(schema: Parameters<typeof parseBody>[0], body: unknown): string {
  try {
    parseBody(schema, body);
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('sign-up body', () => {
  it('accepts the form, normalizing optional blanks away and ignoring confirmPassword', () => {
    const parsed = parseBody(signupBody, { ...validSignup, confirmPassword: 'whatever', claimCode: ' claim-ab12cd34 ' });
    expect(parsed).toEqual({
      email: 'alice@example.com',
      displayName: 'Alice',
      twitterHandle: 'alice_01',
      walletAddress: WALLET,
      role: 'clipper',
      tokenLink: undefined,
      claimCode: 'CLAIM-AB12CD34',
      password: 'correct horse',
    });
    expect(parsed).not.toHaveProperty('confirmPassword');
  });

  it('drops one leading @ from the handle and keeps passwords untrimmed', () => {
    const parsed = parseBody(signupBody, { ...validSignup, twitterHandle: ' @alice_01 ', password: '  spaced  ' });
    expect(parsed.twitterHandle).toBe('alice_01');
    expect(parsed.password).toBe('  spaced  ');
  });

  it.each([
    ['missing email', { email: undefined }, 'Please enter a valid email address'],
    ['bad email', { email: 'alice@' }, 'Please enter a valid email address'],
    ['numeric email', { email: 42 }, 'Please enter a valid email address'],
    ['missing handle', { twitterHandle: undefined }, 'Twitter handle is required'],
    ['blank handle', { twitterHandle: '   ' }, 'Twitter handle is required'],
    [
      'handle with spaces',
      { twitterHandle: 'al ice' },
      'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)',
    ],
    [
      'handle too long for Twitter',
      { twitterHandle: 'a'.repeat(16) },
      'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)',
    ],
    ['handle as a number', { twitterHandle: 12 }, 'Twitter handle must be text'],
    ['missing wallet', { walletAddress: undefined }, 'Solana wallet address is required'],
    ['blank wallet', { walletAddress: '' }, 'Solana wallet address is required'],
    ['short wallet', { walletAddress: 'abc' }, 'Please enter a valid Solana wallet address'],
    ['wallet with 0 (not base58)', { walletAddress: `0${WALLET.slice(1)}` }, 'Please enter a valid Solana wallet address'],
    ['missing role', { role: undefined }, 'Please select a role'],
    ['admin role', { role: 'admin' }, 'Please select a role'],
    ['token link not a URL', { tokenLink: 'pump fun' }, 'Please enter a valid URL'],
    ['token link not http', { tokenLink: 'javascript:alert(1)' }, 'Please enter a valid URL'],
    ['short password', { password: 'short' }, 'Password must be at least 8 characters'],
    ['missing password', { password: undefined }, 'Password must be at least 8 characters'],
    ['numeric password', { password: 12345678 }, 'Password must be text'],
    ['huge password', { password: 'x'.repeat(257) }, 'Password must be at most 256 characters'],
    ['long display name', { displayName: 'x'.repeat(101) }, 'Display name must be at most 100 characters'],
    ['unknown field', { isAdmin: true }, 'Unknown field: isAdmin'],
  ])('%s → the spec message', (_label, patch, message) => {
    expect(messageFor(signupBody, { ...validSignup, ...patch })).toBe(message);
  });

  it('reports the first problem in form order', () => {
    expect(messageFor(signupBody, { password: 'x' })).toBe('Please enter a valid email address');
    expect(messageFor(signupBody, { email: 'a@b.co' })).toBe('Twitter handle is required');
  });

  it('refuses a body that is not an object', () => {
    expect(messageFor(signupBody, [validSignup])).toBe('Request body must be a JSON object');
    expect(messageFor(signupBody, 'text')).toBe('Request body must be a JSON object');
  });

  it('treats a missing body as empty, so the first required field is named', () => {
    expect(messageFor(signupBody, undefined)).toBe('Please enter a valid email address');
  });

  it('accepts null for optional fields', () => {
    expect(messageFor(signupBody, { ...validSignup, tokenLink: null, claimCode: null, displayName: null })).toBe('ok');
  });
});

describe('login body', () => {
  it.each([
    [{}, 'Twitter handle is required'],
    [{ twitterHandle: 'alice' }, 'Password is required'],
    [{ twitterHandle: 'alice', password: '' }, 'Password is required'],
    [{ twitterHandle: 'alice', password: 123 }, 'Password must be text'],
    [{ twitterHandle: ['alice'], password: 'x' }, 'Twitter handle must be text'],
    [{ twitterHandle: 'alice', password: 'x', remember: true }, 'Unknown field: remember'],
  ])('%j → %s', (body, message) => {
    expect(messageFor(loginBody, body)).toBe(message);
  });

  it('does not apply the sign-up handle rule (a bad handle simply matches nobody)', () => {
    expect(messageFor(loginBody, { twitterHandle: 'not a handle', password: 'x' })).toBe('ok');
  });
});

describe('reset-password body', () => {
  it.each([
    [{ email: 'a@b.co', newPassword: 'longenough' }, 'Twitter handle is required'],
    [{ twitterHandle: 'alice', email: 'nope', newPassword: 'longenough' }, 'Please enter a valid email address'],
    [{ twitterHandle: 'alice', email: 'a@b.co', newPassword: 'short' }, 'Password must be at least 8 characters'],
    [
      { twitterHandle: 'alice', email: 'a@b.co', newPassword: 'longenough', confirmPassword: 'longenough' },
      'Unknown field: confirmPassword',
    ],
    [{ twitterHandle: 'alice', email: 'a@b.co', newPassword: 'longenough' }, 'ok'],
  ])('%j → %s', (body, message) => {
    expect(messageFor(resetPasswordBody, body)).toBe(message);
  });
});

describe('link bodies (reset confirmation, email confirmation)', () => {
  const token = 'A1_-'.repeat(10) + 'xyz';
  it.each([
    [confirmResetBody, { token }, 'ok'],
    [confirmResetBody, { token: token.slice(1) }, 'This password reset link is invalid or has expired'],
    [confirmResetBody, {}, 'This password reset link is invalid or has expired'],
    [confirmResetBody, { token, newPassword: 'x' }, 'Unknown field: newPassword'],
    [verifyEmailBody, { token }, 'ok'],
    [verifyEmailBody, { token: 42 }, 'This verification link is invalid or has expired'],
  ])('%#: %j → %s', (schema, body, message) => {
    expect(messageFor(schema, body)).toBe(message);
  });
});
