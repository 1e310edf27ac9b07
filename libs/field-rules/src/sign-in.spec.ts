import { describe, expect, it } from '@jest/globals';
import { busyText, isHttpUrl, isSignUpRole, SIGN_IN_MESSAGES, URL_MAX_LENGTH } from './sign-in.js';

describe('sign-up role', () => {
  it('is clipper or streamer, exactly', () => {
    expect(isSignUpRole('clipper')).toBe(true);
    expect(isSignUpRole('streamer')).toBe(true);
    for (const other of ['admin', 'user', 'Clipper', '', undefined, null, 1]) expect(isSignUpRole(other)).toBe(false);
  });
});

describe('http(s) link', () => {
  it.each(['https://pump.fun/coin/abc', 'http://example.com', 'HTTPS://EXAMPLE.COM/a?b#c', 'https://127.0.0.1:8080/x'])(
    'accepts %s',
    (url) => {
      expect(isHttpUrl(url)).toBe(true);
    },
  );

  it.each(['', 'pump dot fun', 'example.com', '/media/x.png', 'ftp://example.com', 'javascript:alert(1)', 'mailto:a@b.co', 'https://'])(
    'refuses %j',
    (url) => {
      expect(isHttpUrl(url)).toBe(false);
    },
  );

  it(`is at most ${URL_MAX_LENGTH} characters`, () => {
    const base = 'https://example.com/';
    expect(isHttpUrl(base + 'a'.repeat(URL_MAX_LENGTH - base.length))).toBe(true);
    expect(isHttpUrl(base + 'a'.repeat(URL_MAX_LENGTH - base.length + 1))).toBe(false);
  });
});

describe('sign-in messages', () => {
  it('are the spec words', () => {
    expect(SIGN_IN_MESSAGES).toEqual({
      invalidCredentials: 'Invalid Twitter handle or password',
      roleRequired: 'Please select a role',
      urlInvalid: 'Please enter a valid URL',
    });
  });
});

describe('busyText (ADR 0044)', () => {
  it('names what is busy and the seconds to wait, as the Retry-After sent with it', () => {
    expect(busyText('log-in', 3)).toBe('Too many sign-ins right now; please try again in 3 seconds');
    expect(busyText('sign-up', 1)).toBe('Too many sign-ups right now; please try again in 1 second');
    expect(busyText('reset-request', 'N')).toBe('Too many password resets right now; please try again in N seconds');
  });
});
