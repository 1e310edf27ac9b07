import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { SESSION_CACHE, type FollowsSessions, type SessionCache } from '../auth/session-cache.js';
import type { GatewayConfig } from '../config.js';
import type { EncodableJson } from '../http/json-compression.js';
import type { FeedPageJson } from './feed.schemas.js';
import { overlayLiked } from './liked-overlay.js';
import { PublicReadCache, type CachedRead } from './read-cache.js';

interface Entry {
  key: string;
  /** The read cache's generation the liked set was read in: any feed notice since makes it stale. */
  generation: number;
  expiresAt: number;
  liked: ReadonlySet<string>;
  /** The shared page the answer was laid over, and the answer (compressed forms kept on it once made). */
  base: CachedRead<FeedPageJson>;
  answer: EncodableJson;
}

/**
 * Signed-in readers' feed pages (ADR 0045): per reader and page, the clips of the shared page they liked
 * (one likedAmong call to the feed service) and the answer laid over the shared bytes with them.
 * - Dropped by the feed's notices with the shared pages (a like or an unlike is one): the read cache's
 *   generation, bumped by each, is kept with every entry.
 * - Kept GATEWAY_PERSONAL_READ_CACHE_TTL_MS at most, which only bounds what a lost notice could leave:
 *   the shared page under an entry is loaded again on its own time (same generation: the same clips, the
 *   likes laid over again).
 * - Follows the session cache: all dropped when it is emptied, and none served or kept while it is
 *   suspended (NATS cannot be heard, so a notice could be missed); a load across that is not kept.
 * - At most GATEWAY_PERSONAL_READ_CACHE_MAX_ENTRIES (LRU). A reader who liked nothing on a page costs a key
 *   and an empty set: their answer is the shared answer itself.
 */
@Injectable()
export class PersonalPages implements FollowsSessions {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<
    string,
    { base: CachedRead<FeedPageJson>; generation: number; epoch: number; answer: Promise<EncodableJson> }
  >();
  /** Bumped when everything is dropped (the session cache emptied or suspended). */
  private epoch = 0;

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly reads: PublicReadCache,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
  ) {
    sessions.follow(this);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether answers are served and kept: shared pages and these are cached, and NATS is heard. */
  private get active(): boolean {
    return this.config.PUBLIC_READ_CACHE_TTL_MS > 0 && this.config.GATEWAY_PERSONAL_READ_CACHE_TTL_MS > 0 && this.sessions.active;
  }

  /** The reader's answer for the page cached under `pageKey`, when their liked set of it is still current. */
  peek(userId: string, pageKey: string, base: CachedRead<FeedPageJson>): EncodableJson | undefined {
    if (!this.active) return undefined;
    const key = entryKey(userId, pageKey);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== this.reads.currentGeneration || entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // The shared page was loaded again in the same generation (its time ran out): the same clips, laid over again.
    if (entry.base !== base) {
      entry.base = base;
      entry.answer = overlayLiked(base, entry.liked);
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.answer;
  }

  /**
   * The reader's answer for the page, from the cache or laid over `base` with what `likedAmong` answers;
   * concurrent misses of one reader and page share one call, unless a feed notice came since it started.
   */
  async get(userId: string, pageKey: string, base: CachedRead<FeedPageJson>, likedAmong: () => Promise<string[]>): Promise<EncodableJson> {
    const hit = this.peek(userId, pageKey, base);
    if (hit) return hit;
    const key = entryKey(userId, pageKey);
    const pending = this.loading.get(key);
    if (pending && pending.base === base && pending.generation === this.reads.currentGeneration && pending.epoch === this.epoch)
      return pending.answer;
    const epoch = this.epoch;
    const entry = {
      base,
      generation: base.generation,
      epoch,
      answer: likedAmong().then((ids) => this.keep(userId, pageKey, base, new Set(ids), epoch)),
    };
    this.loading.set(key, entry);
    const done = () => {
      if (this.loading.get(key) === entry) this.loading.delete(key);
    };
    entry.answer.then(done, done);
    return entry.answer;
  }

  /**
   * The reader's answer for `base` with `liked` laid over it; kept only when no feed notice came since
   * `base` was loaded (likedAmong was asked after that: a like applied meanwhile is not missed).
   */
  put(userId: string, pageKey: string, base: CachedRead<FeedPageJson>, liked: ReadonlySet<string>): EncodableJson {
    return this.keep(userId, pageKey, base, liked, this.epoch);
  }

  /** As `put`, for likes asked when the epoch was `epoch`: not kept when everything was dropped since. */
  private keep(userId: string, pageKey: string, base: CachedRead<FeedPageJson>, liked: ReadonlySet<string>, epoch: number): EncodableJson {
    const answer = overlayLiked(base, liked);
    const generation = base.generation;
    if (!this.active || generation !== this.reads.currentGeneration || epoch !== this.epoch) return answer;
    const key = entryKey(userId, pageKey);
    this.entries.delete(key);
    this.entries.set(key, { key, generation, expiresAt: Date.now() + this.config.GATEWAY_PERSONAL_READ_CACHE_TTL_MS, liked, base, answer });
    while (this.entries.size > this.config.GATEWAY_PERSONAL_READ_CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return answer;
  }

  /** A user's data changed: what they liked did not (the feed's notices tell of that). */
  invalidateUser(): void {}

  /** The session cache was emptied or suspended: every entry goes, and no load under way is kept. */
  clear(): void {
    this.epoch += 1;
    this.entries.clear();
  }
}

const entryKey = (userId: string, pageKey: string) => `${userId}\u0001${pageKey}`;
