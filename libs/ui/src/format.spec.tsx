// Pure helpers; .spec.tsx like every ui spec so it runs in the ui project (see README).
import { describe, expect, it } from '@jest/globals';
import { cn } from './cn.js';
import { abbreviateNumber, formatDate } from './format.js';

describe('abbreviateNumber (spec: 1,000 and up as K, 1,000,000 and up as M, one decimal)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1.0K'],
    [1500, '1.5K'],
    [1049, '1.0K'],
    [12_345, '12.3K'],
    [999_949, '999.9K'],
    [1_000_000, '1.0M'],
    [1_250_000, '1.3M'],
    [2_000_000, '2.0M'],
    [45_678_901, '45.7M'],
    [2_500_000_000, '2500.0M'],
  ])('%p → %p', (value, expected) => {
    expect(abbreviateNumber(value)).toBe(expected);
  });

  it('rounds fractional counts below 1,000 to whole numbers', () => {
    expect(abbreviateNumber(12.4)).toBe('12');
    expect(abbreviateNumber(12.6)).toBe('13');
    expect(abbreviateNumber(0.4)).toBe('0');
  });

  it('moves to the next unit instead of showing 1000 of the smaller one', () => {
    expect(abbreviateNumber(999.6)).toBe('1.0K');
    expect(abbreviateNumber(999_950)).toBe('1.0M');
    expect(abbreviateNumber(999_999)).toBe('1.0M');
  });

  it('keeps the sign and turns non-finite input into 0', () => {
    expect(abbreviateNumber(-1500)).toBe('-1.5K');
    expect(abbreviateNumber(-3)).toBe('-3');
    expect(abbreviateNumber(-0.2)).toBe('0');
    expect(abbreviateNumber(Number.NaN)).toBe('0');
    expect(abbreviateNumber(Number.POSITIVE_INFINITY)).toBe('0');
  });
});

describe("formatDate ('MMM d, yyyy • h:mm a', local time)", () => {
  it.each([
    [new Date(2025, 0, 5, 15, 7), 'Jan 5, 2025 • 3:07 PM'],
    [new Date(2024, 11, 31, 0, 0), 'Dec 31, 2024 • 12:00 AM'],
    [new Date(2024, 5, 15, 12, 30), 'Jun 15, 2024 • 12:30 PM'],
    [new Date(2023, 8, 9, 9, 5), 'Sep 9, 2023 • 9:05 AM'],
    [new Date(2023, 1, 28, 23, 59), 'Feb 28, 2023 • 11:59 PM'],
  ])('%p → %p', (date, expected) => {
    expect(formatDate(date)).toBe(expected);
  });

  it('accepts ISO strings and epoch milliseconds, read in local time', () => {
    const date = new Date(2025, 6, 4, 18, 45);
    expect(formatDate(date.toISOString())).toBe('Jul 4, 2025 • 6:45 PM');
    expect(formatDate(date.getTime())).toBe('Jul 4, 2025 • 6:45 PM');
  });

  it('gives an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(new Date(Number.NaN))).toBe('');
  });
});

describe('cn', () => {
  it('joins truthy class names from strings, arrays and objects', () => {
    const loading = false;
    expect(cn('a', loading && 'b', null, undefined, 0, 'c', ['d', ['e', false]], { f: true, g: false, h: 1 })).toBe('a c d e f h');
    expect(cn()).toBe('');
  });
});
