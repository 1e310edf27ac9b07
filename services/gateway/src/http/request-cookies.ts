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
    const name = trimmed(header, index, eq);
    if (cookies[name] === undefined) cookies[name] = decoded(trimmed(header, eq + 1, end));
    index = end + 1;
  }
  return cookies;
}

function indexOr(text: string, char: string, from: number, len: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? len : at;
}

function trimmed(text: string, start: number, end: number): string {
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start += 1;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end -= 1;
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
