import { describe, expect, it } from '@jest/globals';
import { utcDayStart } from './daily-limit.js';

describe('utcDayStart', () => {
  it('is midnight UTC of the same UTC day', () => {
    expect(utcDayStart(new Date('2026-11-21T23:59:59.999Z')).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(utcDayStart(new Date('2026-11-22T00:00:00.000Z')).toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });
});
