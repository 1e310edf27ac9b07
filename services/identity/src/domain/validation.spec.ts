import { status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@clipit/service-kit';
import {
  isImageUrl,
  parseLogIn,
  parsePlaceholder,
  parseProfileUpdate,
  parseResetPassword,
  parseSignUp,
  type SignUpFields,
} from './validation.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

const valid: SignUpFields = {
  email: '  Alice@Example.COM ',
  displayName: ' Alice ',
  twitterHandle: ' @Alice_01 ',
  walletAddress: ` ${WALLET} `,
  role: 'streamer',
  tokenLink: 'https://pump.fun/coin/abc',
  claimCode: ' claim-abcd2345 ',
  password: 'correct horse',
};

/** Runs fn and answers the DomainError it threw (failing the test when it threw nothing else). */
function rejection(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

function signUpMessage(patch: Partial<SignUpFields>): string {
  const err = rejection(() => parseSignUp({ ...valid, ...patch }));
  expect(err.code).toBe(status.INVALID_ARGUMENT);
  return err.message;
}

describe('parseSignUp', () => {
  it('answers the whole input normalized', () => {
    const input = parseSignUp(valid);
    expect(input).toEqual({
      email: 'alice@example.com',
      handle: 'Alice_01',
      walletAddress: WALLET,
      role: 'streamer',
      tokenLink: 'https://pump.fun/coin/abc',
      password: 'correct horse',
      displayName: 'Alice',
      claimCode: 'CLAIM-ABCD2345',
      picture: null,
    });
  });

  it('treats empty optional fields as absent', () => {
    const input = parseSignUp({ ...valid, role: 'clipper', tokenLink: '', claimCode: '  ', displayName: '' });
    expect(input.tokenLink).toBeNull();
    expect(input.claimCode).toBeNull();
    expect(input.displayName).toBeNull();
  });

  it.each([
    ['', 'Please enter a valid email address'],
    ['not-an-email', 'Please enter a valid email address'],
    ['a@b', 'Please enter a valid email address'],
    [`${'a'.repeat(250)}@example.com`, 'Please enter a valid email address'],
  ])('rejects the email %j', (email, message) => {
    expect(signUpMessage({ email })).toBe(message);
  });

  it.each([
    ['', 'Twitter handle is required'],
    ['  @ ', 'Twitter handle is required'],
    ['has space', 'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)'],
    ['sixteen_chars_xx', 'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)'],
    ['dash-ed', 'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)'],
  ])('rejects the handle %j', (twitterHandle, message) => {
    expect(signUpMessage({ twitterHandle })).toBe(message);
  });

  it('accepts a 15-character handle', () => {
    expect(parseSignUp({ ...valid, twitterHandle: 'fifteen_chars_x' }).handle).toBe('fifteen_chars_x');
  });

  it.each([
    ['', 'Solana wallet address is required'],
    ['short', 'Please enter a valid Solana wallet address'],
    ['0OIl' + WALLET.slice(4), 'Please enter a valid Solana wallet address'],
    ['1'.repeat(45), 'Please enter a valid Solana wallet address'],
  ])('rejects the wallet %j', (walletAddress, message) => {
    expect(signUpMessage({ walletAddress })).toBe(message);
  });

  it('accepts 32 to 44 base58 characters', () => {
    expect(parseSignUp({ ...valid, walletAddress: '1'.repeat(32) }).walletAddress).toBe('1'.repeat(32));
    expect(parseSignUp({ ...valid, walletAddress: 'z'.repeat(44) }).walletAddress).toBe('z'.repeat(44));
  });

  it.each(['', 'user', 'admin', 'viewer'])('rejects the role %j', (role) => {
    expect(signUpMessage({ role })).toBe('Please select a role');
  });

  it.each(['pump.fun/x', 'ftp://pump.fun/x', 'javascript:alert(1)', 'https://'])('rejects the token link %j', (tokenLink) => {
    expect(signUpMessage({ tokenLink })).toBe('Please enter a valid URL');
  });

  it('checks password length: at least 8, at most 256', () => {
    expect(signUpMessage({ password: '' })).toBe('Password must be at least 8 characters');
    expect(signUpMessage({ password: '1234567' })).toBe('Password must be at least 8 characters');
    expect(signUpMessage({ password: 'x'.repeat(257) })).toBe('Password must be at most 256 characters');
    expect(parseSignUp({ ...valid, password: '12345678' }).password).toBe('12345678');
  });

  it('limits the display name to 100 characters', () => {
    expect(signUpMessage({ displayName: 'x'.repeat(101) })).toBe('Display name must be at most 100 characters');
    expect(parseSignUp({ ...valid, displayName: 'x'.repeat(100) }).displayName).toHaveLength(100);
  });

  it('lets only streamers send a claim code', () => {
    expect(signUpMessage({ role: 'clipper' })).toBe('Only streamers can claim a profile');
  });

  it('rejects a claim code that cannot be one', () => {
    expect(signUpMessage({ claimCode: 'hello' })).toBe('Invalid claim code');
  });

  it('checks fields in form order (the first problem is reported)', () => {
    expect(signUpMessage({ email: 'bad', twitterHandle: '', password: '' })).toBe('Please enter a valid email address');
    expect(signUpMessage({ twitterHandle: '', password: '' })).toBe('Twitter handle is required');
  });

  it('accepts a real image and reports its sniffed type', () => {
    const input = parseSignUp({ ...valid, profilePicture: PNG });
    expect(input.picture?.image.mime).toBe('image/png');
    expect(input.picture?.bytes.equals(Buffer.from(PNG))).toBe(true);
  });

  it('ignores an empty picture', () => {
    expect(parseSignUp({ ...valid, profilePicture: new Uint8Array() }).picture).toBeNull();
  });

  it('rejects pictures that are not images, whatever they claim to be', () => {
    expect(signUpMessage({ profilePicture: Buffer.from('%PDF-1.7 pretending') })).toBe('Profile picture must be an image file');
  });

  it('rejects pictures over 5 MB', () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    expect(signUpMessage({ profilePicture: big })).toBe('Profile picture must be 5 MB or smaller');
    const limit = new Uint8Array(5 * 1024 * 1024);
    limit.set(PNG);
    expect(parseSignUp({ ...valid, profilePicture: limit }).picture).not.toBeNull();
  });
});

describe('parseLogIn', () => {
  it('requires a handle and a password', () => {
    expect(rejection(() => parseLogIn({ twitterHandle: ' ', password: 'x' })).message).toBe('Twitter handle is required');
    expect(rejection(() => parseLogIn({ twitterHandle: 'alice', password: '' })).message).toBe('Password is required');
  });

  it('normalizes the handle but does not judge its format', () => {
    expect(parseLogIn({ twitterHandle: '@Alice', password: 'pw' })).toEqual({ handle: 'Alice', password: 'pw' });
    expect(parseLogIn({ twitterHandle: 'not a handle', password: 'pw' }).handle).toBe('not a handle');
  });
});

describe('parseResetPassword', () => {
  it('checks handle, email and new password', () => {
    expect(rejection(() => parseResetPassword({ twitterHandle: '', email: 'a@b.co', newPassword: '12345678' })).message).toBe(
      'Twitter handle is required',
    );
    expect(rejection(() => parseResetPassword({ twitterHandle: 'a', email: 'nope', newPassword: '12345678' })).message).toBe(
      'Please enter a valid email address',
    );
    expect(rejection(() => parseResetPassword({ twitterHandle: 'a', email: 'a@b.co', newPassword: 'short' })).message).toBe(
      'Password must be at least 8 characters',
    );
    expect(parseResetPassword({ twitterHandle: '@A', email: 'A@B.CO', newPassword: '12345678' })).toEqual({
      handle: 'A',
      email: 'a@b.co',
      newPassword: '12345678',
    });
  });
});

describe('parseProfileUpdate', () => {
  it('keeps only the fields that were sent', () => {
    expect(parseProfileUpdate({})).toEqual({});
    expect(parseProfileUpdate({ displayName: '  New Name ' })).toEqual({ displayName: 'New Name' });
  });

  it("requires a display name of at most 100 characters after trimming, in the sign-up form's words", () => {
    expect(rejection(() => parseProfileUpdate({ displayName: '   ' })).message).toBe('Display name is required');
    expect(rejection(() => parseProfileUpdate({ displayName: 'x'.repeat(101) })).message).toBe(
      'Display name must be at most 100 characters',
    );
    expect(parseProfileUpdate({ displayName: 'x'.repeat(100) })).toEqual({ displayName: 'x'.repeat(100) });
  });

  it("takes no image URL: images change only through the user's own upload", () => {
    expect(parseProfileUpdate({ displayName: 'A', profileImageUrl: 'https://cdn.example.com/a.png' } as { displayName: string })).toEqual({
      displayName: 'A',
    });
  });
});

describe('parsePlaceholder', () => {
  it('normalizes a placeholder and defaults the multiplier to 1.00', () => {
    expect(parsePlaceholder({ displayName: ' Big Streamer ', twitterUsername: '@BigStream' }, '/media')).toEqual({
      displayName: 'Big Streamer',
      twitterUsername: 'BigStream',
      profileImageUrl: null,
      bannerImageUrl: null,
      streamerMultiplier: '1.00',
    });
  });

  it('requires a display name and a username', () => {
    expect(rejection(() => parsePlaceholder({ displayName: '', twitterUsername: 'x' }, '/media')).message).toBe('Display name is required');
    expect(rejection(() => parsePlaceholder({ displayName: 'X', twitterUsername: '' }, '/media')).message).toBe(
      'Twitter username is required',
    );
  });

  it('checks image URLs and the multiplier', () => {
    const ok = { displayName: 'X', twitterUsername: 'x' };
    expect(rejection(() => parsePlaceholder({ ...ok, profileImageUrl: 'nope' }, '/media')).message).toBe(
      'Profile image URL must be a valid http(s) URL or an uploaded image',
    );
    expect(parsePlaceholder({ ...ok, streamerMultiplier: '1.5' }, '/media').streamerMultiplier).toBe('1.50');
    expect(rejection(() => parsePlaceholder({ ...ok, streamerMultiplier: '2.01' }, '/media')).message).toBe(
      'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01',
    );
  });
});

describe('isImageUrl', () => {
  it('accepts keys under the media base, refusing traversal and other prefixes', () => {
    expect(isImageUrl('/media/profile-images/abc.png', '/media')).toBe(true);
    expect(isImageUrl('/media/profile-images/abc.png', '/media/')).toBe(true);
    expect(isImageUrl('/media/', '/media')).toBe(false);
    expect(isImageUrl('/media/a/../b.png', '/media')).toBe(false);
    expect(isImageUrl('/mediax/a.png', '/media')).toBe(false);
    expect(isImageUrl('//evil.example/a.png', '/media')).toBe(false);
  });
});
