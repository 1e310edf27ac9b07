import type { Redis } from 'ioredis';

export interface RateLimitOptions {
  /** REDIS_KEY_PREFIX; counters live under `<prefix>rl:`. */
  keyPrefix: string;
  windowSeconds: number;
  maxPerIp: number;
  maxPerHandle: number;
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
 */
export class RateLimiter {
  private readonly redis: RedisWithHit;

  constructor(redis: Redis, private readonly opts: RateLimitOptions) {
    if (typeof (redis as unknown as Partial<RedisWithHit>).rateLimitHit !== 'function') {
      redis.defineCommand('rateLimitHit', { lua: HIT_SCRIPT });
    }
    this.redis = redis as unknown as RedisWithHit;
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
    const waitMs = Number(await this.redis.rateLimitHit(keys.length, ...keys, this.opts.windowSeconds * 1000, ...limits));
    return waitMs > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : { allowed: true };
  }

  key(action: string, kind: 'ip' | 'handle', value: string): string {
    return `${this.opts.keyPrefix}rl:${action}:${kind}:${value}`;
  }
}

/** "@Alice " and "alice" are the same account as far as attempts go. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@+/, '').toLowerCase();
}
