import { describe, expect, it } from '@jest/globals';
import { EMAIL_MESSAGES, isEmail } from './email.js';

describe('email', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.org', "o'hara@example.com", 'under_score-1@x-y.io', 'UPPER@EXAMPLE.COM'])(
    'accepts %s',
    (email) => {
      expect(isEmail(email)).toBe(true);
    },
  );

  it.each([
    '',
    'a',
    'a@b',
    'a@b.c',
    '.a@b.co',
    'a.@b.co',
    'a..b@c.co',
    'a b@c.co',
    'a@-b.co',
    'a@b..co',
    'a@b.c0',
    '@b.co',
    'a@@b.co',
    ' a@b.co',
  ])('refuses %j', (email) => {
    expect(isEmail(email)).toBe(false);
  });

  it('is at most 254 characters', () => {
    const domain = '@example.com';
    expect(isEmail(`${'a'.repeat(254 - domain.length)}${domain}`)).toBe(true);
    expect(isEmail(`${'a'.repeat(255 - domain.length)}${domain}`)).toBe(false);
  });

  it('has the spec message', () => {
    expect(EMAIL_MESSAGES.invalid).toBe('Please enter a valid email address');
  });
});
