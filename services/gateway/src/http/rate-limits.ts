import { status as GrpcStatus } from '@grpc/grpc-js';
import { HttpStatus, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { CONFIG, GrpcCallError, LOGGER, type RateLimiter, type RateLimitVerdict } from '@clipit/service-kit';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import type { DailyQuota, QuotaReservation, QuotaVerdict } from '../rate-limit/daily-quota.js';
import { HttpErrorWithHeaders } from './http-errors.js';
import { LIMITS, type DailyLimitName, type WindowCounters, type WindowLimitName } from './limits.js';
import { SERVICE_UNAVAILABLE } from './messages.js';

/** The counters behind the limits: one Redis-backed limiter per kind of window (LIMITS' `counters`), and the daily quota. */
export interface LimitCounters {
  window: Record<WindowCounters, RateLimiter>;
  daily: DailyQuota;
}
export const LIMIT_COUNTERS = Symbol('LIMIT_COUNTERS');

/** 429 with Retry-After: the limit's text, and the seconds until its counter starts again. */
export class LimitReached extends HttpErrorWithHeaders {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** Who a request is counted as: its address and, for limits with a second counter, the handle or account. */
export interface Counted {
  ip: string;
  key?: string | undefined;
}

// The owner answered, and what it answered means nothing was made: the day's slot goes back. A call that
// timed out (the thing may have been made) or a fault of our own keeps it.
const NOTHING_MADE = new Set<number>([
  GrpcStatus.INVALID_ARGUMENT,
  GrpcStatus.ALREADY_EXISTS,
  GrpcStatus.NOT_FOUND,
  GrpcStatus.FAILED_PRECONDITION,
  GrpcStatus.PERMISSION_DENIED,
  GrpcStatus.UNAUTHENTICATED,
  GrpcStatus.RESOURCE_EXHAUSTED,
  GrpcStatus.OUT_OF_RANGE,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.UNIMPLEMENTED,
]);

export function madeNothing(err: unknown): boolean {
  return err instanceof GrpcCallError && NOTHING_MADE.has(err.code);
}

/** Counts requests against the limits of the table in limits.ts and refuses past them. */
@Injectable()
export class RateLimits {
  /** Whether the last daily reserve found Redis away: the outage is logged once each way, not per request. */
  private dailyAway = false;

  constructor(
    @Inject(LIMIT_COUNTERS) private readonly counters: LimitCounters,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Counts one request against a window limit: 429 past it; 503 when the counters fail, unless the limit lets it through. */
  async hit(name: WindowLimitName, who: Counted): Promise<void> {
    const limit = LIMITS[name];
    let verdict: RateLimitVerdict;
    try {
      verdict = await this.counters.window[limit.counters].hit(name, who.ip, who.key);
    } catch (err) {
      // The limiter counts in this process when Redis is away (ADR 0018), so this is a fault of its own.
      if (limit.onFault === 'allow') return;
      throw new ServiceUnavailableException(SERVICE_UNAVAILABLE, { cause: err });
    }
    if (!verdict.allowed) throw new LimitReached(limit.message(verdict.retryAfterSeconds), verdict.retryAfterSeconds);
  }

  /**
   * Runs `work` if the account and the address have some of a daily limit left, counting it unless the
   * owner answered that nothing was made. Without Redis it runs uncounted (an abuse limit fails open).
   */
  async counting<T>(name: DailyLimitName, who: Required<Counted>, work: () => Promise<T>): Promise<T> {
    const reservation = await this.reserve(name, who);
    try {
      return await work();
    } catch (err) {
      if (reservation && madeNothing(err)) await this.release(name, reservation);
      throw err;
    }
  }

  private async reserve(name: DailyLimitName, who: Required<Counted>): Promise<QuotaReservation | undefined> {
    const limit = LIMITS[name];
    let verdict: QuotaVerdict;
    try {
      verdict = await this.counters.daily.reserve(name, [
        { kind: 'user', value: who.key, limit: limit.perUser(this.config) },
        { kind: 'ip', value: who.ip, limit: limit.perIp(this.config) },
      ]);
    } catch (err) {
      // Fail open: the counters are away, not the rule's owner; the owner's own limits and moderation still hold.
      if (!this.dailyAway) this.log.warn({ err, userId: who.key }, `${name} limits not checked until Redis answers again`);
      this.dailyAway = true;
      return undefined;
    }
    if (this.dailyAway) this.log.info(`${name} limits checked again: Redis answers`);
    this.dailyAway = false;
    if (verdict.allowed) return verdict.reservation;
    const spent = verdict.exceeded.kind === 'user' ? 'user' : 'ip';
    throw new LimitReached(limit.message(spent, verdict.exceeded.limit, verdict.retryAfterSeconds), verdict.retryAfterSeconds);
  }

  private async release(name: DailyLimitName, reservation: QuotaReservation): Promise<void> {
    try {
      await this.counters.daily.release(reservation);
    } catch (err) {
      this.log.warn({ err }, `${name} limit slot not given back: Redis did not answer`);
    }
  }
}
