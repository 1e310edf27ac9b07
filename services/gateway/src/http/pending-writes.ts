import type { IncomingMessage } from 'node:http';
import { MAX_PENDING_WRITES, parseEventEntry, type WrittenEvent } from '@clipit/service-kit';
import { cookiesOf } from './request-cookies.js';

/** The cookie a browser carries while a write of its own may not show in the read models yet (ADR 0043). */
export const PENDING_WRITES_COOKIE = 'clipit.rw';
/** The header naming the writes a read must show (read-your-writes), for clients without cookies (Node lowercases it). */
export const AFTER_HEADER = 'clipit-after';
/** The same header as a write's answer sends it. */
export const AFTER_HEADER_ANSWERED = 'Clipit-After';
/** The answer's header when a read stopped waiting for them (ADR 0043). */
export const STALE_HEADER = 'Clipit-Stale';
/** How long a write is waited for by its writer's reads: long past any event's way through a healthy platform. */
export const PENDING_WRITE_LIFETIME_MS = 60_000;

/** A write of the requester's whose events its next reads must show, until `until` (epoch ms). */
export interface PendingWrite extends WrittenEvent {
  until: number;
}

/**
 * The request's cookies, parsed only when its Cookie header mentions `clipit.rw` (most requests do not:
 * this runs for every request, before Fastify's own cookie parser).
 */
function cookiesNamingWrites(req: Pick<IncomingMessage, 'headers'>): Record<string, string | undefined> | undefined {
  return req.headers.cookie?.includes(PENDING_WRITES_COOKIE) ? cookiesOf(req.headers) : undefined;
}

/**
 * Whether a request waits for its own writes (read-your-writes): it carries the `clipit.rw` cookie or a
 * `Clipit-After` header. Such a request is never answered from a fast path or a per-user cache: it goes
 * to the route, whose reads wait for the events its writes committed. Every answer given before Fastify
 * asks this first. `cookies`: the request's cookies when the caller has parsed them already.
 */
export function hasPendingWrites(req: Pick<IncomingMessage, 'headers'>, cookies = cookiesNamingWrites(req)): boolean {
  return req.headers[AFTER_HEADER] !== undefined || cookies?.[PENDING_WRITES_COOKIE] !== undefined;
}

/**
 * The writes a request names, from its `Clipit-After` header and its `clipit.rw` cookie: entries
 * `<event id>:<event type>[:<until, epoch seconds>]` joined by commas. Malformed and past entries are
 * dropped, doubles kept once, the newest MAX_PENDING_WRITES kept. An entry without its time (a client
 * writing the header itself) lives PENDING_WRITE_LIFETIME_MS from now.
 */
export function pendingWritesOf(
  req: Pick<IncomingMessage, 'headers'>,
  now = Date.now(),
  cookies = cookiesNamingWrites(req),
): PendingWrite[] {
  const header = req.headers[AFTER_HEADER];
  const cookie = cookies?.[PENDING_WRITES_COOKIE];
  if (header === undefined && cookie === undefined) return [];
  const writes: PendingWrite[] = [];
  for (const text of [cookie, ...(Array.isArray(header) ? header : [header])]) {
    if (typeof text !== 'string' || text.length > 4096) continue;
    for (const entry of text.split(',')) {
      const event = parseEventEntry(entry);
      if (!event) continue;
      const { id, type, rest: until } = event;
      const ends = until === undefined ? now + PENDING_WRITE_LIFETIME_MS : /^\d{1,12}$/.test(until) ? Number(until) * 1000 : NaN;
      if (!(ends > now) || ends > now + PENDING_WRITE_LIFETIME_MS + 1000) continue;
      if (!writes.some((w) => w.id === id)) writes.push({ id, type, until: ends });
    }
  }
  return writes.slice(-MAX_PENDING_WRITES);
}

/**
 * The writes to name after a request: those it named, still pending, then the events it committed (each
 * pending PENDING_WRITE_LIFETIME_MS from `now`), the newest MAX_PENDING_WRITES kept.
 */
export function afterWriting(named: readonly PendingWrite[], written: readonly WrittenEvent[], now = Date.now()): PendingWrite[] {
  const writes = named.filter((w) => w.until > now && !written.some((e) => e.id === w.id));
  for (const e of written) writes.push({ id: e.id, type: e.type, until: now + PENDING_WRITE_LIFETIME_MS });
  return writes.slice(-MAX_PENDING_WRITES);
}

/** The header's and cookie's text for `writes`. */
export function formatPendingWrites(writes: readonly PendingWrite[]): string {
  return writes.map((w) => `${w.id}:${w.type}:${Math.ceil(w.until / 1000)}`).join(',');
}
