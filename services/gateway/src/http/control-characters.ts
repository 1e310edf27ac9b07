import { BadRequestException } from '@nestjs/common';
import { CONTROL_CHARACTERS } from './messages.js';

/**
 * The edge's one rule on characters (ADR 0004, gateway README): C0 control characters and DEL are
 * refused in every string a request brings — JSON bodies (keys included), multipart fields, query
 * strings and path parameters — except tab, line feed and carriage return, which free text
 * (additionalInfo) legitimately holds. NUL is never valid in Postgres text; the others are invisible,
 * break logs and exports, and no form of ours produces them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function hasForbiddenControlCharacter(value: unknown): boolean {
  // Iterative: a deeply nested body (which JSON.parse accepts) must not overflow the stack here.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (FORBIDDEN.test(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (isPlainRecord(next)) {
      for (const key of Object.keys(next)) {
        if (FORBIDDEN.test(key)) return true;
        pending.push(next[key]);
      }
    }
  }
  return false;
}

/** Parsed JSON, query strings, params and multipart fields; not streams, buffers or files. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** 400 with the one message, whichever field held the character. */
export function assertNoControlCharacters(...values: unknown[]): void {
  if (values.some(hasForbiddenControlCharacter)) throw new BadRequestException(CONTROL_CHARACTERS);
}
