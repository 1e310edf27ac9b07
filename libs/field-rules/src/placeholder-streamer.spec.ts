import { describe, expect, it } from '@jest/globals';
import { normalizeMultiplier, PLACEHOLDER_MESSAGES } from './placeholder-streamer.js';

describe('normalizeMultiplier', () => {
  it.each([
    ['1', '1.00'],
    ['1.0', '1.00'],
    ['1.5', '1.50'],
    ['1.25', '1.25'],
    [' 2 ', '2.00'],
    ['2.00', '2.00'],
  ])('reads %j as %j', (raw, expected) => {
    expect(normalizeMultiplier(raw)).toBe(expected);
  });

  it.each(['0.99', '2.01', '1.005', '1.', 'abc', '-1', '10', '1,5', ''])('refuses %j', (raw) => {
    expect(normalizeMultiplier(raw)).toBeUndefined();
  });
});

describe('PLACEHOLDER_MESSAGES', () => {
  it('says the display name limit it checks', () => {
    expect(PLACEHOLDER_MESSAGES.displayNameTooLong).toBe('Display name must be at most 100 characters');
  });
});
