import { HttpStatus } from '@nestjs/common';
import { HttpErrorWithHeaders } from '../http/http-errors.js';
import { inAbout } from '../submissions/submission-limit.js';

/** The limiter's action name: `<REDIS_KEY_PREFIX>rl:clipper-applications:ip:<address>`. */
export const APPLICATIONS_ACTION = 'clipper-applications';

export function applicationLimitMessage(retryAfterSeconds: number): string {
  return `Too many applications from your network. Try again ${inAbout(retryAfterSeconds)}.`;
}

export const APPLICATION_LIMIT_EXAMPLE = applicationLimitMessage(40 * 60);

/** 429 with Retry-After. */
export class ApplicationLimitReached extends HttpErrorWithHeaders {
  constructor(retryAfterSeconds: number) {
    super(applicationLimitMessage(retryAfterSeconds), HttpStatus.TOO_MANY_REQUESTS, { 'Retry-After': String(retryAfterSeconds) });
  }
}
