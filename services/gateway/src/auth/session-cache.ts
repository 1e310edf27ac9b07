import type { identityV1 } from '@clipit/contracts';

/** The replica's SessionCache (AuthModule provides it). */
export const SESSION_CACHE = Symbol('SESSION_CACHE');

/** What identity answered for a session id, as the cache keeps it. */
export interface CachedSession {
  user: identityV1.User;
  /** The session's own expiry (ISO 8601), as identity last answered it. */
  expiresAt: string;
}

interface Entry extends CachedSession {
  sid: string;
  userId: string;
  /** Served until then (ms since the epoch): the cache's TTL, never past the session's own expiry. */
  until: number;
}

/** A per-user cache of what a user's sessions read (their dashboard): it forgets a user when the session cache does. */
export interface FollowsSessions {
  invalidateUser(userId: string): void;
  clear(): void;
}

export interface SessionCacheOptions {
  /** How long an answer is served without asking identity again; 0 turns the cache off. */
  ttlMs: number;
  /** Most sessions kept; the least recently used goes first. */
  maxEntries: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/**
 * The gateway's short-lived memory of resolved sessions: sid → {user, session expiry}, so a signed-in
 * request does not cost a gRPC call and a database read each time (ADR 0004).
 *
 * - Bounded (LRU over a Map's insertion order) and short-lived (`ttlMs`), never past the session's expiry.
 * - Only live sessions are kept: an unknown sid is never cached, so a fresh login is never refused.
 * - Served only while `enabled` (the invalidation feed is being heard, see SessionInvalidations):
 *   `suspend()` forgets everything and stops serving until `resume()`.
 * - Every invalidation bumps an epoch; an answer that was being fetched while one happened is not
 *   kept (it may predate the change), so a racing resolve cannot bring an ended session back.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly now: () => number;
  private epoch = 0;
  private enabled = false;
  private readonly followers: FollowsSessions[] = [];

  constructor(private readonly opts: SessionCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Makes `follower` forget a user (everyone) whenever this cache does: a user event, an unreadable one, the bus away. */
  follow(follower: FollowsSessions): void {
    this.followers.push(follower);
  }

  /** Whether the cache is on at all (a TTL above 0); off, the gateway asks identity for every request as it did before. */
  get configured(): boolean {
    return this.opts.ttlMs > 0;
  }

  /** Whether answers are served and kept (a TTL of 0, or the bus away, turns it off). */
  get active(): boolean {
    return this.enabled && this.opts.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** A token to hand to `set` after asking identity: the answer is kept only if nothing was invalidated meanwhile. */
  mark(): number {
    return this.epoch;
  }

  get(sid: string): CachedSession | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(sid);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.remove(entry);
      return undefined;
    }
    // Most recently used goes last; eviction takes from the front.
    this.entries.delete(sid);
    this.entries.set(sid, entry);
    return entry;
  }

  /** Keeps identity's answer for `sid`, unless an invalidation happened since `mark` or the cache is off. */
  set(sid: string, value: CachedSession, mark: number): void {
    if (!this.active || mark !== this.epoch) return;
    const now = this.now();
    const until = Math.min(now + this.opts.ttlMs, Date.parse(value.expiresAt));
    if (!(until > now)) return;
    const existing = this.entries.get(sid);
    if (existing) this.remove(existing);
    const entry: Entry = { sid, userId: value.user.id, user: value.user, expiresAt: value.expiresAt, until };
    this.entries.set(sid, entry);
    let sids = this.byUser.get(entry.userId);
    if (!sids) this.byUser.set(entry.userId, (sids = new Set()));
    sids.add(sid);
    while (this.entries.size > this.opts.maxEntries) {
      const oldest = this.entries.values().next().value;
      if (!oldest) break;
      this.remove(oldest);
    }
  }

  /** One session ended (logout). */
  invalidateSession(sid: string): void {
    this.epoch += 1;
    const entry = this.entries.get(sid);
    if (entry) this.remove(entry);
  }

  /** Everything known about a user is stale: their data changed, or all their sessions ended. */
  invalidateUser(userId: string): void {
    this.epoch += 1;
    for (const follower of this.followers) follower.invalidateUser(userId);
    const sids = this.byUser.get(userId);
    if (!sids) return;
    for (const sid of [...sids]) {
      const entry = this.entries.get(sid);
      if (entry) this.remove(entry);
    }
    this.byUser.delete(userId);
  }

  /**
   * The sessions of the account with this Twitter handle (a password reset through this replica, which
   * only knows the handle): case and a leading @ do not matter. A scan, for a rare and limited action.
   */
  invalidateHandle(handle: string): void {
    this.epoch += 1;
    const wanted = normalizeHandle(handle);
    if (!wanted) return;
    for (const entry of [...this.entries.values()]) {
      if (entry.user.twitterUsername && normalizeHandle(entry.user.twitterUsername) === wanted) this.invalidateUser(entry.userId);
    }
  }

  /** Forgets everything (the invalidation feed may have missed something). */
  clear(): void {
    this.epoch += 1;
    for (const follower of this.followers) follower.clear();
    this.entries.clear();
    this.byUser.clear();
  }

  /** Stops serving and forgets everything: invalidations cannot be heard now. */
  suspend(): void {
    this.enabled = false;
    this.clear();
  }

  /** Serves again: invalidations are heard from now on (nothing from before is kept). */
  resume(): void {
    if (this.enabled) return;
    this.clear();
    this.enabled = true;
  }

  private remove(entry: Entry): void {
    if (this.entries.get(entry.sid) === entry) this.entries.delete(entry.sid);
    const sids = this.byUser.get(entry.userId);
    if (sids) {
      sids.delete(entry.sid);
      if (sids.size === 0) this.byUser.delete(entry.userId);
    }
  }
}

function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@/, '').toLowerCase();
}
