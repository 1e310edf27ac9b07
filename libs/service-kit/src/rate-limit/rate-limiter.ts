import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RateLimitOptions {
  /** REDIS_KEY_PREFIX; counters live under `<prefix>rl:`. */
  keyPrefix: string;
  windowSeconds: number;
  maxPerIp: number;
  maxPerHandle: number;
  /** How long Redis may take to count an attempt before this process counts it itself (250 ms). */
  redisTimeoutMs?: number;
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

// Fixed windows, one counter per key: INCR, start the window on the first hit (or if a key ever lost
// its TTL), and report the longest wait among the counters that are over their limit (0 = allowed).
// One script, so replicas sharing Redis never race between the increment and the expiry.
const HIT_SCRIPT = `
local window = tonumber(ARGV[1])
local wait = 0
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, window)
    ttl = window
  end
  if count > tonumber(ARGV[i + 1]) and ttl > wait then
    wait = ttl
  end
end
return wait
`;

type RedisWithHit = Redis & { rateLimitHit(numKeys: number, ...args: (string | number)[]): Promise<number> };

/**
 * Counts attempts of one action (login, signup, reset-password) per client IP and per Twitter handle
 * in Redis, so every gateway replica sees the same counts.
 *
 * When Redis does not answer (not connected, an error, or no answer within `redisTimeoutMs`), the
 * attempt is counted by a {@link LocalCounters} of this process with the same window and limits, so
 * sign-in keeps working and is still limited, per replica, through a Redis outage (ADR 0018). The
 * switch is logged once each way, not per attempt. The local counts are dropped when Redis answers
 * again: the attempts of the outage are not carried over.
 */
export class RateLimiter {
  private readonly redis: RedisWithHit;
  private readonly local: LocalCounters;
  private readonly redisTimeoutMs: number;
  private usingLocal = false;

  constructor(
    redis: Redis,
    private readonly opts: RateLimitOptions,
    private readonly log?: Logger,
  ) {
    if (typeof (redis as unknown as Partial<RedisWithHit>).rateLimitHit !== 'function') {
      redis.defineCommand('rateLimitHit', { lua: HIT_SCRIPT });
    }
    this.redis = redis as unknown as RedisWithHit;
    this.local = new LocalCounters(opts.windowSeconds * 1000);
    this.redisTimeoutMs = opts.redisTimeoutMs ?? 250;
  }

  /** Records one attempt and says whether it may go ahead. */
  async hit(action: string, ip: string, handle?: string): Promise<RateLimitVerdict> {
    const keys = [this.key(action, 'ip', ip)];
    const limits = [this.opts.maxPerIp];
    const normalized = handle === undefined ? '' : normalizeHandle(handle);
    if (normalized !== '') {
      keys.push(this.key(action, 'handle', normalized));
      limits.push(this.opts.maxPerHandle);
    }
    let waitMs: number;
    try {
      waitMs = await this.hitInRedis(keys, limits);
      this.redisAnswered();
    } catch (err) {
      this.redisFailed(err);
      waitMs = this.local.hit(keys, limits);
    }
    return waitMs > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : { allowed: true };
  }

  key(action: string, kind: 'ip' | 'handle', value: string): string {
    return `${this.opts.keyPrefix}rl:${action}:${kind}:${value}`;
  }

  /** True while attempts are counted by this process because Redis does not answer. */
  get countingLocally(): boolean {
    return this.usingLocal;
  }

  private async hitInRedis(keys: string[], limits: number[]): Promise<number> {
    // Lost and retrying on its own: waiting for it would only delay the answer. (While it first connects,
    // the command waits for it, within the timeout.) Once counting locally, nothing is sent until the
    // connection is ready again: a command queued while it reconnects would run when it is back, and the
    // attempt, already counted here, would count in Redis as well.
    const status = this.redis.status;
    if (['reconnecting', 'close', 'end'].includes(status) || (this.usingLocal && status !== 'ready')) {
      throw new Error(`Redis connection is ${status}`);
    }
    const call = this.redis.rateLimitHit(keys.length, ...keys, this.opts.windowSeconds * 1000, ...limits);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.redisTimeoutMs} ms`)), this.redisTimeoutMs);
    });
    // A call given up on may still fail later (the connection's own command timeout): nobody waits for it then.
    call.catch(() => undefined);
    try {
      return Number(await Promise.race([call, timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  private redisFailed(err: unknown): void {
    if (this.usingLocal) return;
    this.usingLocal = true;
    this.log?.warn(
      { err },
      'rate limits: Redis does not answer; counting attempts in this process until it does (limits hold per gateway replica)',
    );
  }

  private redisAnswered(): void {
    if (!this.usingLocal) return;
    this.usingLocal = false;
    this.local.clear();
    this.log?.info('rate limits: Redis answers again; counting attempts in Redis');
  }
}

/**
 * The same fixed windows as the Redis script, in this process's memory: one counter per key that
 * starts its window on the first hit. Counters whose window ended are swept from time to time, so
 * the map holds at most the keys hit within one window.
 */
export class LocalCounters {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit on each key; answers the longest wait among the keys over their limit (0 = allowed). */
  hit(keys: string[], limits: number[]): number {
    const now = this.now();
    this.sweep(now);
    let wait = 0;
    keys.forEach((key, i) => {
      let counter = this.counters.get(key);
      if (!counter || counter.resetAt <= now) {
        counter = { count: 0, resetAt: now + this.windowMs };
        this.counters.set(key, counter);
      }
      counter.count += 1;
      const ttl = counter.resetAt - now;
      if (counter.count > limits[i]! && ttl > wait) wait = ttl;
    });
    return wait;
  }

  clear(): void {
    this.counters.clear();
  }

  get size(): number {
    return this.counters.size;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + Math.min(this.windowMs, 60_000);
    for (const [key, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(key);
  }
}

/** "@Alice " and "alice" are the same account as far as attempts go. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@+/, '').toLowerCase();
}
