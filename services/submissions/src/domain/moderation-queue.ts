import { decodeCursor, encodeCursor, INVALID_CURSOR, invalid, type KeysetPosition } from '@clipit/service-kit';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import { PLATFORMS, type Platform } from './post-url.js';

/** The statuses a moderator filters by. */
export const QUEUE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/**
 * What a moderator may ask to see first (issue 36's moderation queue):
 * - `matched`: the video matches an earlier clip (ADR 0048);
 * - `risky`: the view risk is under review (ADR 0049);
 * - `failed-checks`: the guide's checks warned about the video (ADR 0047), or the video was refused.
 */
export const QUEUE_FLAGS = ['matched', 'risky', 'failed-checks'] as const;
export type QueueFlag = (typeof QUEUE_FLAGS)[number];

/** A page request of the moderation queue, checked. */
export interface QueueFilter {
  /** One status; undefined: every status, pending ones first. */
  status?: QueueStatus;
  platform?: Platform;
  /** A submission shows when it has any of them; empty: no flag asked for. */
  flags: QueueFlag[];
}

export const queueMessages = {
  status: `status must be one of: ${QUEUE_STATUSES.join(', ')}`,
  platform: `platform must be one of: ${PLATFORMS.join(', ')}`,
  flags: `flags must be among: ${QUEUE_FLAGS.join(', ')}`,
} as const;

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

/** The filter of a ListSubmissions request; INVALID_ARGUMENT naming the allowed values for anything else. */
export function queueFilter(request: {
  status?: string | undefined;
  platform?: string | undefined;
  flags?: readonly string[] | undefined;
}): QueueFilter {
  const filter: QueueFilter = { flags: [] };
  if (request.status) {
    if (!isOneOf(QUEUE_STATUSES, request.status)) throw invalid(queueMessages.status);
    filter.status = request.status;
  }
  if (request.platform) {
    if (!isOneOf(PLATFORMS, request.platform)) throw invalid(queueMessages.platform);
    filter.platform = request.platform;
  }
  for (const flag of request.flags ?? []) {
    if (!isOneOf(QUEUE_FLAGS, flag)) throw invalid(queueMessages.flags);
    if (!filter.flags.includes(flag)) filter.flags.push(flag);
  }
  return filter;
}

/**
 * Where a page of the queue starts: after this row in the queue's order, (rank, created_at DESC, id DESC),
 * rank 0 for a pending submission and 1 for the others when every status is listed (always 0 under a status
 * filter). The rank travels in the cursor, so a submission approved while a moderator pages through moves
 * nothing: the next page starts where the last one ended in the order it was read in.
 */
export interface QueuePosition extends KeysetPosition {
  rank: 0 | 1;
}

/** The queue's rank of a submission: pending ones first unless the filter picks one status. */
export const queueRank = (filter: QueueFilter, s: Pick<SubmissionEntity, 'status'>): 0 | 1 =>
  filter.status || s.status === 'pending' ? 0 : 1;

/** An opaque cursor: the rank, a dot, and the kit's keyset cursor. */
export function encodeQueueCursor(position: QueuePosition): string {
  return `${position.rank}.${encodeCursor(position)}`;
}

/** The position a queue cursor names; INVALID_ARGUMENT 'Invalid cursor' for anything encodeQueueCursor did not write. */
export function decodeQueueCursor(cursor: string): QueuePosition {
  const match = /^([01])\.(.+)$/.exec(cursor);
  if (!match) throw invalid(INVALID_CURSOR);
  return { rank: match[1] === '0' ? 0 : 1, ...decodeCursor(match[2]!) };
}
