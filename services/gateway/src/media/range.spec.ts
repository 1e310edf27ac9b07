import { describe, expect, it } from '@jest/globals';
import { isNotModified, parseRange, rangeStillValid } from './range.js';

describe('parseRange', () => {
  const size = 1000;
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-499', { kind: 'partial', start: 0, end: 499 }],
    ['bytes=500-', { kind: 'partial', start: 500, end: 999 }],
    ['bytes=-100', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'partial', start: 0, end: 999 }],
    ['bytes=900-5000', { kind: 'partial', start: 900, end: 999 }],
    ['BYTES = 1-1', { kind: 'partial', start: 1, end: 1 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=1000-1001', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=500-400', { kind: 'whole' }],
    ['bytes=0-1,5-6', { kind: 'whole' }],
    ['items=0-5', { kind: 'whole' }],
    ['bytes=abc', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
    ['bytes=99999999999999999999-', { kind: 'whole' }],
  ])('%s → %j', (header, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it('finds nothing to send in an empty object', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('validators', () => {
  const v = { etag: '"abc"', lastModified: new Date('2026-11-21T10:00:00.750Z') };

  it('If-None-Match matches the ETag (weakly), a list, or *', () => {
    expect(isNotModified({ ifNoneMatch: '"abc"' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: 'W/"abc"' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"x", "abc"' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '*' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"other"' }, v)).toBe(false);
  });

  it('If-Modified-Since counts whole seconds and yields to If-None-Match', () => {
    expect(isNotModified({ ifModifiedSince: 'Sat, 21 Nov 2026 10:00:00 GMT' }, v)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Sat, 21 Nov 2026 09:59:59 GMT' }, v)).toBe(false);
    expect(isNotModified({ ifModifiedSince: 'garbage' }, v)).toBe(false);
    expect(isNotModified({ ifNoneMatch: '"other"', ifModifiedSince: 'Sat, 21 Nov 2026 10:00:00 GMT' }, v)).toBe(false);
  });

  it('If-Range keeps the range only for the same version (strong ETag or exact date)', () => {
    expect(rangeStillValid(undefined, v)).toBe(true);
    expect(rangeStillValid('"abc"', v)).toBe(true);
    expect(rangeStillValid('"old"', v)).toBe(false);
    expect(rangeStillValid('W/"abc"', v)).toBe(false);
    expect(rangeStillValid('Sat, 21 Nov 2026 10:00:00 GMT', v)).toBe(true);
    expect(rangeStillValid('Sat, 21 Nov 2026 09:00:00 GMT', v)).toBe(false);
  });
});
