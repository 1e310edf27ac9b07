import { ServiceUnavailableException } from '@nestjs/common';
import type { RateLimiter, RateLimitVerdict } from '@clipit/service-kit';
import { RateLimitedError } from './http-errors.js';
import { SERVICE_UNAVAILABLE } from './messages.js';

/**
 * Counts one attempt at `action` (a login, a reset, a wallet change) against the caller's address and, when
 * given, the account or handle it names; 429 with Retry-After past either limit.
 */
export async function limitAttempts(limiter: RateLimiter, action: string, ip: string, key?: string): Promise<void> {
  let verdict: RateLimitVerdict;
  try {
    verdict = await limiter.hit(action, ip, key);
  } catch (err) {
    // The limiter counts in this process when Redis is away (ADR 0018), so this is a fault of its own:
    // refuse rather than let attempts through unlimited.
    throw new ServiceUnavailableException(SERVICE_UNAVAILABLE, { cause: err });
  }
  if (!verdict.allowed) throw new RateLimitedError(verdict.retryAfterSeconds);
}
