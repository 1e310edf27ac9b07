import { HttpStatus } from '@nestjs/common';
import { HttpErrorWithHeaders } from '../http/http-errors.js';
import { inAbout } from '../submissions/submission-limit.js';

/** The limiter's action name: `<REDIS_KEY_PREFIX>rl:hire-requests:ip:<address>`. */
export const HIRES_ACTION = 'hire-requests';

export function hireLimitMessage(retryAfterSeconds: number): string {
  return `Too many hire requests from your network. Try again ${inAbout(retryAfterSeconds)}.`;
}

export const HIRE_LIMIT_EXAMPLE = hireLimitMessage(40 * 60);

/** 429 with Retry-After. */
export class HireLimitReached extends HttpErrorWithHeaders {
  constructor(retryAfterSeconds: number) {
    super(hireLimitMessage(retryAfterSeconds), HttpStatus.TOO_MANY_REQUESTS, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** The hire limiter's injection token. */
export const HIRE_LIMITER = Symbol('HIRE_LIMITER');
