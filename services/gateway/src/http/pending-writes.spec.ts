import { describe, expect, it } from '@jest/globals';
import { hasPendingWrites } from './pending-writes.js';

const req = (headers: Record<string, string>) => ({ headers });

describe('hasPendingWrites', () => {
  it('is false for a plain request, signed in or not', () => {
    expect(hasPendingWrites(req({}))).toBe(false);
    expect(hasPendingWrites(req({ cookie: 'clipit.sid=abcdefghijklmnopqrstuvwxyz' }))).toBe(false);
  });

  it('is true with the clipit.rw cookie, wherever it sits among the cookies and whatever its value', () => {
    expect(hasPendingWrites(req({ cookie: 'clipit.rw=17' }))).toBe(true);
    expect(hasPendingWrites(req({ cookie: 'clipit.sid=abcdefghijklmnopqrstuvwxyz; clipit.rw=17' }))).toBe(true);
    expect(hasPendingWrites(req({ cookie: 'a=1;clipit.rw=; b=2' }))).toBe(true);
  });

  it('is true with a Clipit-After header (Node lowercases header names)', () => {
    expect(hasPendingWrites(req({ 'clipit-after': '42' }))).toBe(true);
    expect(hasPendingWrites(req({ 'clipit-after': '' }))).toBe(true);
  });

  it('is not fooled by a cookie whose name only contains clipit.rw, or by the name inside a value', () => {
    expect(hasPendingWrites(req({ cookie: 'xclipit.rw=1' }))).toBe(false);
    expect(hasPendingWrites(req({ cookie: 'clipit.rwx=1; other=clipit.rw=1' }))).toBe(false);
  });

  it('uses cookies the caller already parsed', () => {
    expect(hasPendingWrites(req({}), { 'clipit.rw': '1' })).toBe(true);
  });
});
