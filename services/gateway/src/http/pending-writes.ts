import type { IncomingMessage } from 'node:http';
import { cookiesOf } from './request-cookies.js';

/** The cookie a browser carries while a write of its own may not show in the read models yet. */
export const PENDING_WRITES_COOKIE = 'clipit.rw';
/** The header naming the position a read must wait for (read-your-writes). */
export const AFTER_HEADER = 'clipit-after';

/**
 * Whether a request waits for its own writes (read-your-writes): it carries the `clipit.rw` cookie or a
 * `Clipit-After` header. Such a request is never answered from a fast path or a per-user cache: it goes
 * to the route, which waits for the position its write reached. Every answer given before Fastify asks
 * this first. `cookies`: the request's cookies when the caller has parsed them already.
 */
export function hasPendingWrites(req: Pick<IncomingMessage, 'headers'>, cookies = cookiesOf(req.headers)): boolean {
  return req.headers[AFTER_HEADER] !== undefined || cookies[PENDING_WRITES_COOKIE] !== undefined;
}
