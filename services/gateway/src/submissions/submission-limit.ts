import { status as GrpcStatus } from '@grpc/grpc-js';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { CONFIG, GrpcCallError, LOGGER } from '@clipit/service-kit';
import { isIPv6 } from 'node:net';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { HttpErrorWithHeaders } from '../http/http-errors.js';
import type { DailyQuota, QuotaReservation, QuotaVerdict } from '../rate-limit/daily-quota.js';
import { SUBMISSION_QUOTA } from '../tokens.js';

/** The counters' action name: `<REDIS_KEY_PREFIX>rl:submissions:{user,ip}:<id>:<YYYY-MM-DD>`. */
export const SUBMISSIONS_ACTION = 'submissions';

/** "in 45 seconds", "in 12 minutes", "in 5 hours": rounded up, so a person never comes back too early. */
export function inAbout(seconds: number): string {
  const unit = (n: number, name: string) => `in ${n} ${name}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

/** The 429 text: which limit, and when to try again (the reset is 00:00 UTC, as the video limit's). */
export function submissionLimitMessage(kind: 'user' | 'ip', limit: number, retryAfterSeconds: number): string {
  const what =
    kind === 'user'
      ? `You have reached today's limit of ${limit} submissions.`
      : `Too many submissions from your network today (at most ${limit} a day).`;
  return `${what} Try again ${inAbout(retryAfterSeconds)}, after 00:00 UTC.`;
}

/** An example for the API reference. */
export const SUBMISSION_LIMIT_EXAMPLE = submissionLimitMessage('user', 20, 5 * 3600);

/** 429 with Retry-After: the seconds until the day's counters start again. */
export class SubmissionLimitReached extends HttpErrorWithHeaders {
  constructor(kind: 'user' | 'ip', limit: number, retryAfterSeconds: number) {
    super(submissionLimitMessage(kind, limit, retryAfterSeconds), HttpStatus.TOO_MANY_REQUESTS, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

// The service answered, and what it answered means no submission exists: the slot goes back. A call
// that timed out (the submission may have been created) or a fault of our own keeps it.
const NOTHING_CREATED = new Set<number>([
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

export function createdNothing(err: unknown): boolean {
  return err instanceof GrpcCallError && NOTHING_CREATED.has(err.code);
}

/**
 * The client address as the per-address counter knows it: an IPv4 address as it is (IPv4-mapped IPv6
 * too), an IPv6 address as its /64, the block one subscriber line gets, since a client can take any
 * address in it and would otherwise have a fresh counter per request.
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return ip;
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head = '', tail] = address.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * How many submissions a day an account (SUBMISSION_LIMIT_PER_USER) and a client address
 * (SUBMISSION_LIMIT_PER_IP) may create, so nobody floods the moderation queue. Only submissions the
 * service accepted count; a refused attempt (ours or the service's) costs nothing. An abuse limit,
 * not a security boundary: without Redis it lets submissions through (ADR 0013).
 */
@Injectable()
export class SubmissionLimit {
  constructor(
    @Inject(SUBMISSION_QUOTA) private readonly quota: DailyQuota,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Whether the last reserve found Redis away: the outage is logged once each way, not per submission. */
  private redisAway = false;

  /** Runs `create` if the user and the address have submissions left today, counting it unless it created nothing. */
  async counting<T>(who: { userId: string; ip: string }, create: () => Promise<T>): Promise<T> {
    const reservation = await this.reserve(who);
    try {
      return await create();
    } catch (err) {
      if (reservation && createdNothing(err)) await this.release(reservation);
      throw err;
    }
  }

  private async reserve(who: { userId: string; ip: string }): Promise<QuotaReservation | undefined> {
    let verdict: QuotaVerdict;
    try {
      verdict = await this.quota.reserve(SUBMISSIONS_ACTION, [
        { kind: 'user', value: who.userId, limit: this.config.SUBMISSION_LIMIT_PER_USER },
        { kind: 'ip', value: addressKey(who.ip), limit: this.config.SUBMISSION_LIMIT_PER_IP },
      ]);
    } catch (err) {
      // Fail open: the counters are away, not the rule's owner; the service's own limits and moderation still hold.
      if (!this.redisAway) this.log.warn({ err, userId: who.userId }, 'submission limits not checked until Redis answers again');
      this.redisAway = true;
      return undefined;
    }
    if (this.redisAway) this.log.info('submission limits checked again: Redis answers');
    this.redisAway = false;
    if (!verdict.allowed)
      throw new SubmissionLimitReached(verdict.exceeded.kind === 'user' ? 'user' : 'ip', verdict.exceeded.limit, verdict.retryAfterSeconds);
    return verdict.reservation;
  }

  private async release(reservation: QuotaReservation): Promise<void> {
    try {
      await this.quota.release(reservation);
    } catch (err) {
      this.log.warn({ err }, 'submission limit slot not given back: Redis did not answer');
    }
  }
}
