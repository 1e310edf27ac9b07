import type { Redis } from 'ioredis';

/** One counter a request draws on: what is counted (`user`, `ip`), whose, and how many a day it allows. */
export interface QuotaCounter {
  kind: string;
  value: string;
  limit: number;
}

/** What `reserve` took, to give back with `release` when the thing counted did not happen after all. */
export interface QuotaReservation {
  keys: string[];
}

export type QuotaVerdict =
  { allowed: true; reservation: QuotaReservation } | { allowed: false; exceeded: QuotaCounter; retryAfterSeconds: number; resetsAt: Date };

// All or nothing: if any counter is at its limit nothing is counted and its (1-based) index is
// answered; otherwise every counter goes up by one and expires with its day. A refused attempt
// therefore costs nothing, today or tomorrow. One script, so replicas never race between the check
// and the increment.
const RESERVE_SCRIPT = `
local expireAt = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[i + 1]) then
    return i
  end
end
for i, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('PEXPIREAT', key, expireAt)
end
return 0
`;

// Gives one back on each counter that still exists (a day that has ended is not touched, and never goes below 0).
const RELEASE_SCRIPT = `
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 1 then
    redis.call('DECR', key)
  elseif count == 1 then
    redis.call('DEL', key)
  end
end
return 0
`;

type RedisWithQuota = Redis & {
  quotaReserve(numKeys: number, ...args: (string | number)[]): Promise<number>;
  quotaRelease(numKeys: number, ...keys: string[]): Promise<number>;
};

const DAY_MS = 24 * 3600 * 1000;
// Kept a little past midnight so that a release racing the day's end finds its own day's counter.
const EXPIRY_GRACE_MS = 60_000;

export interface DailyQuotaOptions {
  /** REDIS_KEY_PREFIX; counters live under `<prefix>rl:<action>:<kind>:<value>:<YYYY-MM-DD>`. */
  keyPrefix: string;
  now?: () => Date;
}

/**
 * Counts things done per UTC day (submissions created, …) on several counters at once (per user, per
 * address) in Redis, so every gateway replica sees the same counts. The day is the UTC calendar day,
 * the boundary the submissions service's video limit uses too (ADR 0013).
 */
export class DailyQuota {
  private readonly redis: RedisWithQuota;
  private readonly now: () => Date;

  constructor(
    redis: Redis,
    private readonly opts: DailyQuotaOptions,
  ) {
    const r = redis as unknown as Partial<RedisWithQuota>;
    if (typeof r.quotaReserve !== 'function') redis.defineCommand('quotaReserve', { lua: RESERVE_SCRIPT });
    if (typeof r.quotaRelease !== 'function') redis.defineCommand('quotaRelease', { lua: RELEASE_SCRIPT });
    this.redis = redis as unknown as RedisWithQuota;
    this.now = opts.now ?? (() => new Date());
  }

  /** Counts one `action` on every counter, or none if one of them is spent for today. */
  async reserve(action: string, counters: readonly QuotaCounter[]): Promise<QuotaVerdict> {
    const now = this.now();
    const day = utcDay(now);
    const resetsAt = new Date(day.getTime() + DAY_MS);
    const keys = counters.map((c) => this.key(action, c.kind, c.value, day));
    // Lost and retrying on its own: fail now rather than hold the request until the command times out.
    if (['reconnecting', 'close', 'end'].includes(this.redis.status)) throw new Error(`Redis connection is ${this.redis.status}`);
    const refused = Number(
      await this.redis.quotaReserve(keys.length, ...keys, resetsAt.getTime() + EXPIRY_GRACE_MS, ...counters.map((c) => c.limit)),
    );
    const exceeded = refused > 0 ? counters[refused - 1] : undefined;
    if (!exceeded) return { allowed: true, reservation: { keys } };
    return { allowed: false, exceeded, resetsAt, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)) };
  }

  /** Gives back what `reserve` counted (the thing was refused or failed, so nothing was done). */
  async release(reservation: QuotaReservation): Promise<void> {
    if (reservation.keys.length > 0) await this.redis.quotaRelease(reservation.keys.length, ...reservation.keys);
  }

  key(action: string, kind: string, value: string, day: Date): string {
    return `${this.opts.keyPrefix}rl:${action}:${kind}:${value}:${day.toISOString().slice(0, 10)}`;
  }
}

/** 00:00 UTC of the day `at` falls in. */
export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}
