import { BadRequestException } from '@nestjs/common';

export const PAGE_QUERY_DOCS = {
  limit: 'How many to answer (a whole number; each list says its default and most)',
  cursor: "The previous page's nextCursor, as it was given",
} as const;

/**
 * `?limit=&cursor=` of a paged list: limit a whole number from 1 to `max`, cursor at most 512
 * characters (the owner decides whether it is one of its own). Absent values are left to the owner.
 */
export function pageQuery(query: Record<string, unknown> | undefined, max: number): { limit?: number; cursor?: string } {
  const out: { limit?: number; cursor?: string } = {};
  const limit = query?.['limit'];
  if (limit !== undefined && limit !== '') {
    if (typeof limit !== 'string' || !/^\d{1,6}$/.test(limit) || Number(limit) < 1 || Number(limit) > max) {
      throw new BadRequestException(`limit must be a whole number from 1 to ${max}`);
    }
    out.limit = Number(limit);
  }
  const cursor = query?.['cursor'];
  if (cursor !== undefined && cursor !== '') {
    if (typeof cursor !== 'string' || cursor.length > 512) throw new BadRequestException('Invalid cursor');
    out.cursor = cursor;
  }
  return out;
}
