import { describe, expect, it } from '@jest/globals';
import { afterWriting, formatPendingWrites, hasPendingWrites, PENDING_WRITE_LIFETIME_MS, pendingWritesOf } from './pending-writes.js';

const req = (headers: Record<string, string>) => ({ headers });
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const NOW = 1_800_000_000_000;
const inSeconds = (ms: number) => Math.ceil((NOW + ms) / 1000);

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

describe('pendingWritesOf', () => {
  it('reads the cookie (URL-encoded, as set) and the header, each entry once', () => {
    const cookie = encodeURIComponent(`${ID(1)}:social.liked:${inSeconds(5000)},${ID(2)}:user.updated:${inSeconds(9000)}`);
    const writes = pendingWritesOf(
      req({ cookie: `clipit.rw=${cookie}`, 'clipit-after': `${ID(2)}:user.updated,${ID(3)}:social.followed` }),
      NOW,
    );
    expect(writes.map((w) => [w.id, w.type])).toEqual([
      [ID(1), 'social.liked'],
      [ID(2), 'user.updated'],
      [ID(3), 'social.followed'],
    ]);
    expect(writes[0]!.until).toBe(inSeconds(5000) * 1000);
    // A header entry without its time lives the whole lifetime from now.
    expect(writes[2]!.until).toBe(NOW + PENDING_WRITE_LIFETIME_MS);
  });

  it('drops past, far-future, malformed and unknown entries, and keeps the newest eight', () => {
    const header = [
      `${ID(1)}:social.liked:${inSeconds(-1000)}`,
      `${ID(2)}:social.liked:${inSeconds(PENDING_WRITE_LIFETIME_MS * 10)}`,
      `not-a-uuid:social.liked`,
      `${ID(3)}:no.such-event`,
      `${ID(4)}:social.liked:soon`,
      ...Array.from({ length: 10 }, (_, i) => `${ID(10 + i)}:social.liked`),
    ].join(',');
    expect(pendingWritesOf(req({ 'clipit-after': header }), NOW).map((w) => w.id)).toEqual(Array.from({ length: 8 }, (_, i) => ID(12 + i)));
    expect(pendingWritesOf(req({ 'clipit-after': 'x'.repeat(5000) }), NOW)).toEqual([]);
  });
});

describe('afterWriting', () => {
  it('keeps the writes still pending, adds the new ones for the lifetime, the newest eight, and formats them back', () => {
    const named = [
      { id: ID(1), type: 'social.liked', until: NOW - 1 },
      { id: ID(2), type: 'social.followed', until: NOW + 1000 },
    ];
    const after = afterWriting(named, [{ id: ID(3), type: 'user.updated' }], NOW);
    expect(after).toEqual([
      { id: ID(2), type: 'social.followed', until: NOW + 1000 },
      { id: ID(3), type: 'user.updated', until: NOW + PENDING_WRITE_LIFETIME_MS },
    ]);
    const text = formatPendingWrites(after);
    expect(pendingWritesOf(req({ 'clipit-after': text }), NOW).map((w) => w.id)).toEqual([ID(2), ID(3)]);
    const many = afterWriting(
      after,
      Array.from({ length: 9 }, (_, i) => ({ id: ID(20 + i), type: 'social.liked' })),
      NOW,
    );
    expect(many.map((w) => w.id)).toEqual(Array.from({ length: 8 }, (_, i) => ID(21 + i)));
  });
});
