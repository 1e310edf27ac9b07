import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { oembedCacheKey, positiveTtlSeconds, type Oembed, type StatusRef } from './oembed.js';
import type { OembedUpstream } from './oembed-upstream.js';

const lookups = metricOnce(
  'gateway_oembed_lookups_total',
  () =>
    new Counter({
      name: 'gateway_oembed_lookups_total',
      help: 'Post previews (GET /api/twitter/oembed) by how they were answered',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

/** What the route answers: the embed (with how long it may be kept), that there is no such post, or that X could not be asked. */
export type OembedResult =
  { kind: 'found'; oembed: Oembed; maxAgeSeconds: number } | { kind: 'not-found'; maxAgeSeconds: number } | { kind: 'unavailable' };

/** What is kept in Redis per post. */
type Stored = { kind: 'found'; oembed: Oembed; expiresAt: number } | { kind: 'not-found'; expiresAt: number };

export interface OembedCacheOptions {
  keyPrefix: string;
  /** The longest a found post is kept (X's cache_age, capped by this). */
  ttlSeconds: number;
  /** How long 'no such post' is kept. */
  notFoundTtlSeconds: number;
  /** How long Redis may take before the lookup goes on without it. */
  redisTimeoutMs?: number;
}

/**
 * X's oEmbed answers, cached in Redis by post id so every replica asks X once per post per TTL: found
 * posts for X's cache_age capped by OEMBED_CACHE_TTL_SECONDS, missing ones (X's 404/403) for
 * OEMBED_NOT_FOUND_TTL_SECONDS. A failure to reach X (timeout, 5xx, anything unreadable) is not kept:
 * the next asker tries again, and the in-flight sharing below and the per-address limit keep that from
 * becoming a flood. Concurrent misses for one post in this process share one request to X. Redis is a
 * cache only: when it does not answer (down, an error, or nothing within 250 ms) posts are looked up
 * without it.
 */
export class OembedService {
  private readonly inFlight = new Map<string, Promise<OembedResult>>();
  private readonly redisTimeoutMs: number;
  private redisAway = false;

  constructor(
    private readonly redis: Redis,
    private readonly upstream: Pick<OembedUpstream, 'lookup'>,
    private readonly opts: OembedCacheOptions,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.redisTimeoutMs = opts.redisTimeoutMs ?? 250;
  }

  /** The cached answer for a post, or undefined when it must be asked of X (not cached, or Redis away). */
  async cached(ref: StatusRef): Promise<OembedResult | undefined> {
    const stored = await this.read(oembedCacheKey(this.opts.keyPrefix, ref.statusId));
    if (!stored) return undefined;
    const maxAgeSeconds = Math.max(0, Math.floor((stored.expiresAt - this.now()) / 1000));
    lookups.inc({ outcome: stored.kind === 'found' ? 'cached' : 'cached-not-found' });
    return stored.kind === 'found' ? { kind: 'found', oembed: stored.oembed, maxAgeSeconds } : { kind: 'not-found', maxAgeSeconds };
  }

  /** Asks X (once per post at a time in this process) and keeps what it said, unless it could not be asked. */
  fetch(ref: StatusRef): Promise<OembedResult> {
    const running = this.inFlight.get(ref.statusId);
    if (running) {
      lookups.inc({ outcome: 'shared' });
      return running;
    }
    const lookup = this.fetchAndStore(ref).finally(() => this.inFlight.delete(ref.statusId));
    this.inFlight.set(ref.statusId, lookup);
    return lookup;
  }

  private async fetchAndStore(ref: StatusRef): Promise<OembedResult> {
    const answer = await this.upstream.lookup(ref.canonicalUrl);
    lookups.inc({ outcome: answer.kind === 'failed' ? 'upstream-failed' : `upstream-${answer.kind}` });
    if (answer.kind === 'failed') {
      this.log.warn({ statusId: ref.statusId, reason: answer.reason }, 'oembed: X could not be asked for a post preview');
      return { kind: 'unavailable' };
    }
    const ttlSeconds = answer.kind === 'found' ? positiveTtlSeconds(answer.oembed, this.opts.ttlSeconds) : this.opts.notFoundTtlSeconds;
    const expiresAt = this.now() + ttlSeconds * 1000;
    const stored: Stored = answer.kind === 'found' ? { kind: 'found', oembed: answer.oembed, expiresAt } : { kind: 'not-found', expiresAt };
    await this.write(oembedCacheKey(this.opts.keyPrefix, ref.statusId), stored, ttlSeconds);
    return answer.kind === 'found'
      ? { kind: 'found', oembed: answer.oembed, maxAgeSeconds: ttlSeconds }
      : { kind: 'not-found', maxAgeSeconds: ttlSeconds };
  }

  private async read(key: string): Promise<Stored | undefined> {
    let raw: string | null;
    try {
      raw = await this.withinTimeout(() => this.redis.get(key));
      this.redisAnswered();
    } catch (err) {
      this.redisFailed(err);
      return undefined;
    }
    if (raw === null) return undefined;
    try {
      const stored = JSON.parse(raw) as Stored;
      if ((stored.kind === 'found' && typeof stored.oembed?.html === 'string') || stored.kind === 'not-found') return stored;
    } catch {
      // A value this code did not write: asked again and overwritten.
    }
    return undefined;
  }

  private async write(key: string, stored: Stored, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    try {
      await this.withinTimeout(() => this.redis.set(key, JSON.stringify(stored), 'EX', ttlSeconds));
      this.redisAnswered();
    } catch (err) {
      this.redisFailed(err);
    }
  }

  private async withinTimeout<T>(command: () => Promise<T>): Promise<T> {
    // Lost and reconnecting on its own: waiting would only delay the preview.
    if (['reconnecting', 'close', 'end'].includes(this.redis.status)) throw new Error(`Redis connection is ${this.redis.status}`);
    const call = command();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.redisTimeoutMs} ms`)), this.redisTimeoutMs);
    });
    // A call given up on may still fail later: nobody waits for it then.
    call.catch(() => undefined);
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private redisFailed(err: unknown): void {
    if (this.redisAway) return;
    this.redisAway = true;
    this.log.warn({ err }, 'oembed: Redis does not answer; post previews are asked of X without the cache until it does');
  }

  private redisAnswered(): void {
    if (!this.redisAway) return;
    this.redisAway = false;
    this.log.info('oembed: Redis answers again; post previews are cached');
  }
}
