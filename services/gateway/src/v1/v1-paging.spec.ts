import { BadRequestException } from '@nestjs/common';
import { nextRankCursor, ownerPage, rankCursor, rankPage } from './v1-paging.js';

describe('v1 ranking pages', () => {
  it('starts at the first rank with 50 unless asked, and reads back the cursor it wrote', () => {
    expect(rankPage({}, 10_000)).toEqual({ limit: 50, offset: 0 });
    expect(rankPage({ limit: '20', cursor: rankCursor(40) }, 10_000)).toEqual({ limit: 20, offset: 40 });
  });

  it('refuses a cursor it did not write, one past the deepest rank, and a limit outside 1 to 100', () => {
    for (const cursor of ['bm9wZQ', rankCursor(0), rankCursor(10_001), `${rankCursor(40)}=`, 'r40', 'x'.repeat(600)]) {
      expect(() => rankPage({ cursor }, 10_000)).toThrow(BadRequestException);
    }
    for (const limit of ['0', '101', '1.5', 'ten'])
      expect(() => rankPage({ limit }, 10_000)).toThrow('limit must be a whole number from 1 to 100');
  });

  it('offers a next page after a full one (until the deepest rank), none after a short one', () => {
    expect(nextRankCursor(0, 2, 2, 10_000)).toBe(rankCursor(2));
    expect(nextRankCursor(2, 2, 1, 10_000)).toBeNull();
    expect(nextRankCursor(9_990, 20, 20, 10_000)).toBeNull();
  });
});

describe('v1 owners’ pages', () => {
  it('asks the owner for 50 unless told, and passes its cursor on as it was given', () => {
    expect(ownerPage({})).toEqual({ limit: 50 });
    expect(ownerPage({ limit: '2', cursor: 'WyIyMDI2Il0' })).toEqual({ limit: 2, cursor: 'WyIyMDI2Il0' });
    expect(ownerPage({ limit: '', cursor: '' })).toEqual({ limit: 50 });
  });

  it('refuses a limit outside 1 to 100 and a cursor that is no string or too long, before the owner is asked', () => {
    for (const limit of ['0', '101', 'ten', ['1', '2']])
      expect(() => ownerPage({ limit })).toThrow('limit must be a whole number from 1 to 100');
    for (const cursor of [['a', 'b'], 'x'.repeat(513)]) expect(() => ownerPage({ cursor })).toThrow('Invalid cursor');
  });
});
