import { describe, expect, it } from '@jest/globals';
import { displayNameOf, handleOf, initialOf } from './people.js';

describe('people', () => {
  it('names a person by display name, else first and last name, else handle', () => {
    expect(displayNameOf({ displayName: 'Ace', firstName: 'A', lastName: 'B', twitterUsername: 'ace' })).toBe('Ace');
    expect(displayNameOf({ displayName: '  ', firstName: 'Ann', lastName: 'Lee', twitterUsername: 'ann' })).toBe('Ann Lee');
    expect(displayNameOf({ displayName: null, firstName: 'Ann', lastName: null, twitterUsername: 'ann' })).toBe('Ann');
    expect(displayNameOf({ displayName: null, firstName: null, lastName: '', twitterUsername: 'ann' })).toBe('ann');
    expect(displayNameOf({})).toBe('');
    expect(displayNameOf(null)).toBe('');
  });

  it('writes handles with an @ and picks an avatar letter', () => {
    expect(handleOf({ twitterUsername: 'ace' })).toBe('@ace');
    expect(handleOf({ twitterUsername: null })).toBe('');
    expect(initialOf({ twitterUsername: 'zed' })).toBe('Z');
    expect(initialOf({})).toBe('?');
  });
});
