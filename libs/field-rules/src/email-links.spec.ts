import { isLinkToken, linkTokenFromHash } from './email-links.js';

describe('link tokens', () => {
  const token = 'a'.repeat(20) + '_-' + 'Z9'.repeat(10) + 'b';

  it('are 43 URL-safe characters', () => {
    expect(token).toHaveLength(43);
    expect(isLinkToken(token)).toBe(true);
    expect(isLinkToken(token.slice(1))).toBe(false);
    expect(isLinkToken(`${token.slice(1)}=`)).toBe(false);
    expect(isLinkToken(undefined)).toBe(false);
  });

  it('are read from a link page fragment, and nothing else is', () => {
    expect(linkTokenFromHash(`#token=${token}`)).toBe(token);
    expect(linkTokenFromHash(`token=${token}`)).toBe(token);
    expect(linkTokenFromHash('#token=short')).toBeUndefined();
    expect(linkTokenFromHash('')).toBeUndefined();
  });
});
