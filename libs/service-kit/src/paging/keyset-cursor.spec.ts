import { status } from '@grpc/grpc-js';
import { DomainError } from '../grpc/errors.js';
import { decodeCursor, encodeCursor, keysetPage, pageSize } from './keyset-cursor.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('keyset cursors', () => {
  it('round-trips a position, milliseconds included', () => {
    const position = { createdAt: new Date('2026-11-24T01:02:03.456Z'), id: id(7) };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    '',
    'not-base64!',
    Buffer.from('{}').toString('base64url'),
    Buffer.from('["2026-11-24T01:02:03.456Z","x"]').toString('base64url'),
    Buffer.from(`["yesterday","${id(1)}"]`).toString('base64url'),
    Buffer.from(`["2026-11-24",  "${id(1)}"]`).toString('base64url'),
  ])('refuses %j with INVALID_ARGUMENT', (cursor) => {
    let error: unknown;
    try {
      decodeCursor(cursor);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect([(error as DomainError).code, (error as DomainError).message]).toEqual([status.INVALID_ARGUMENT, 'Invalid cursor']);
  });

  it('bounds page sizes', () => {
    expect([
      pageSize(undefined, 50, 200),
      pageSize(0, 50, 200),
      pageSize(-4, 50, 200),
      pageSize(7.9, 50, 200),
      pageSize(5000, 50, 200),
    ]).toEqual([50, 50, 50, 7, 200]);
  });

  it('gives a next cursor only when a row beyond the page came back', () => {
    const rows = [3, 2, 1].map((n) => ({ createdAt: new Date(n * 1000), id: id(n) }));
    expect(keysetPage(rows, 3)).toEqual({ page: rows, nextCursor: null });
    const { page, nextCursor } = keysetPage(rows, 2);
    expect(page).toEqual(rows.slice(0, 2));
    expect(decodeCursor(nextCursor!)).toEqual(rows[1]);
  });
});
