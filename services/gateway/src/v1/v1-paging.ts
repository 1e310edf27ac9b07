import { BadRequestException } from '@nestjs/common';
import { z } from 'zod';
import { pageQuery } from '../http/paging.js';

// Paging of the versioned read API (ADR 0053): `limit` (1 to 100) and `cursor` in, `nextCursor` out.

export const V1_PAGE_MAX = 100;
export const V1_PAGE_DEFAULT = 50;

export const V1_PAGE_QUERY_DOCS = {
  limit: `How many to answer: a whole number from 1 to ${V1_PAGE_MAX} (default ${V1_PAGE_DEFAULT})`,
  cursor: "The previous page's nextCursor, as it was given (opaque)",
} as const;

export const INVALID_CURSOR = 'Invalid cursor';
export const V1_PAGE_ERRORS = `'limit must be a whole number from 1 to ${V1_PAGE_MAX}', '${INVALID_CURSOR}'`;

/** A page of a v1 list as a route answers it. */
export interface V1Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * An owner's keyset page: `limit` (1 to 100, 50 unless asked) and the owner's own cursor, passed on as it
 * was given: the owner refuses one it did not write (INVALID_ARGUMENT 'Invalid cursor', a 400 here).
 */
export function ownerPage(query: Record<string, unknown> | undefined): { limit: number; cursor?: string } {
  const { limit = V1_PAGE_DEFAULT, cursor } = pageQuery(query, V1_PAGE_MAX);
  return cursor === undefined ? { limit } : { limit, cursor };
}

/** A page of a v1 list: its items and the cursor of the next page (null on the last). */
export function v1Page<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
    })
    .meta({ id });
}

/**
 * A ranking's page: the ranks it skips, from a cursor this wrote (`r<offset>` in base64url). A ranking
 * moves as views come in, so its pages are positions, not keys: a clip that climbs between two pages can
 * appear on both, one that falls can be missed (ADR 0053).
 */
export function rankPage(query: Record<string, unknown> | undefined, deepest: number): { limit: number; offset: number } {
  const { limit = V1_PAGE_DEFAULT, cursor } = pageQuery(query, V1_PAGE_MAX);
  if (cursor === undefined) return { limit, offset: 0 };
  const match = /^r(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset > 0 && offset <= deepest) || rankCursor(offset) !== cursor) throw new BadRequestException(INVALID_CURSOR);
  return { limit, offset };
}

export function rankCursor(offset: number): string {
  return Buffer.from(`r${offset}`, 'latin1').toString('base64url');
}

/**
 * `nextCursor` of a ranking's page that asked for `limit` from `offset` and got `got`: a full page may have
 * more after it (the page after the last full one is empty), a short one is the last.
 */
export function nextRankCursor(offset: number, limit: number, got: number, deepest: number): string | null {
  return got >= limit && offset + limit <= deepest ? rankCursor(offset + limit) : null;
}
