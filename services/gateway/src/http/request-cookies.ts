import type { IncomingHttpHeaders } from 'node:http';

/**
 * A request's cookies read from its raw headers as @fastify/cookie reads them for a route (its parser,
 * `cookie` 2's parseCookie, step by step: pairs split at `;` and the first `=`, blanks and tabs trimmed,
 * the first of a repeated name wins, a value with `%` URL-decoded when it decodes), so an answer given
 * before Fastify sees the session the route would see. Its plugin loads that parser only once registered.
 */
export function cookiesOf(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const header = headers.cookie;
  const cookies: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  if (!header || header.length < 2) return cookies;
  walkCookies(header, (nameStart, nameEnd, eq, end) => {
    const name = header.slice(nameStart, nameEnd);
    if (cookies[name] === undefined) cookies[name] = decoded(trimmed(header, eq + 1, end));
    return false;
  });
  return cookies;
}

/**
 * One cookie of the request, exactly as `cookiesOf(headers)[name]` reads it (the first of a repeated
 * name, trimmed, %-decoded), without building the others: the signed-in front asks for the session
 * cookie on every request, and an object of every cookie was a visible share of its cost.
 */
export function cookieOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const header = headers.cookie;
  if (!header || header.length < 2) return undefined;
  let value: string | undefined;
  walkCookies(header, (nameStart, nameEnd, eq, end) => {
    if (nameEnd - nameStart !== name.length || !header.startsWith(name, nameStart)) return false;
    value = decoded(trimmed(header, eq + 1, end));
    return true;
  });
  return value;
}

/**
 * The parser's walk over `header`'s pairs (split at `;` and the first `=`; a pair without `=` skipped):
 * `visit` gets each pair's name bounds, blanks and tabs trimmed, its `=` and its end, and ends the walk by
 * answering true.
 */
function walkCookies(header: string, visit: (nameStart: number, nameEnd: number, eq: number, end: number) => boolean): void {
  const len = header.length;
  let index = 0;
  while (index < len) {
    const eq = indexOr(header, '=', index, len);
    if (eq === len) break;
    const end = indexOr(header, ';', index, len);
    if (eq > end) {
      // No `=` in this pair: start again after the last `;` before the next `=`.
      index = header.lastIndexOf(';', eq - 1) + 1;
      continue;
    }
    let start = index;
    let stop = eq;
    while (start < stop && isBlank(header.charCodeAt(start))) start += 1;
    while (stop > start && isBlank(header.charCodeAt(stop - 1))) stop -= 1;
    if (visit(start, stop, eq, end)) return;
    index = end + 1;
  }
}

const isBlank = (code: number) => code === 32 || code === 9;

function indexOr(text: string, char: string, from: number, len: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? len : at;
}

function trimmed(text: string, start: number, end: number): string {
  while (start < end && isBlank(text.charCodeAt(start))) start += 1;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

function decoded(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
