import { invalid } from '../grpc/errors.js';

/** Where a newest-first page ended: the last row's creation time and id (the tie-breaker). */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

export const INVALID_CURSOR = 'Invalid cursor';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An opaque cursor for keyset paging on (created_at DESC, id DESC): the next page is the rows strictly
 * before this position, so a page costs the same at any depth and rows added meanwhile never shift
 * the pages a reader is walking through. The client treats it as an opaque string.
 */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; INVALID_ARGUMENT 'Invalid cursor' for anything this did not write. */
export function decodeCursor(cursor: string): KeysetPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid(INVALID_CURSOR);
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid(INVALID_CURSOR);
  const [iso, id] = parsed as unknown[];
  if (typeof iso !== 'string' || typeof id !== 'string' || !UUID.test(id)) throw invalid(INVALID_CURSOR);
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso) throw invalid(INVALID_CURSOR);
  return { createdAt, id };
}

/** A page size: `requested` when it is a positive number, else `fallback`; never more than `max`. */
export function pageSize(requested: number | null | undefined, fallback: number, max: number): number {
  if (requested === undefined || requested === null || !Number.isFinite(requested) || requested < 1) return fallback;
  return Math.min(Math.floor(requested), max);
}

/**
 * Splits a query's answer of `size + 1` rows into the page and the cursor of the next one (null on the
 * last page): asking for one row more tells whether another page exists without a count.
 */
export function keysetPage<T extends KeysetPosition>(rows: readonly T[], size: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > size && last ? encodeCursor(last) : null };
}
