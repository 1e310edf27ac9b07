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
  /** From then on, a read asks identity again in the background (once), so a used entry never runs out. */
  refreshAt: number;
  refreshing: boolean;
}

/**
 * The last part of an entry's life in which a read refreshes it ahead of its end (refresh-ahead): a
 * quarter, plus up to another quarter at random, so sessions cached together (a replica's first
 * seconds) do not all ask identity again in the same instant.
 */
export const REFRESH_AHEAD_FRACTION = 0.25;

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
  /** Where in its window an entry's refresh starts, 0 to 1 (tests fix it). */
  random?: () => number;
}

/** Asks identity about a session again in the background (SessionResolver): one call per sid at a time. */
export type SessionRefresher = (sid: string) => void;

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
 * - Refresh-ahead: a read in the last part of an entry's life (REFRESH_AHEAD_FRACTION) asks the refresher
 *   (SessionResolver) once to resolve the session again in the background; its answer replaces the entry
 *   (through `set`, so not across an invalidation), so a session in use never runs out under load and
 *   its requests never wait for identity. A dead session or an identity error drops the entry (`drop`).
 *   The entry is served meanwhile, within its TTL as before: nothing is served for longer.
 * - Renewals: when identity extended a session (rolling expiry) the browser's cookie must be re-issued,
 *   which only the route can do. `noteRenewal` keeps the new expiry until a request of that session
 *   reaches the route (`takeRenewal`); until then the front sends that session's requests on
 *   (`renewalPending`).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly now: () => number;
  private readonly random: () => number;
  private epoch = 0;
  private enabled = false;
  private readonly followers: FollowsSessions[] = [];
  private refresher: SessionRefresher | undefined;
  /** sid → the session's new expiry, for the cookie the next request through the route re-issues. */
  private readonly renewals = new Map<string, string>();

  constructor(private readonly opts: SessionCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  /** Who resolves a session again when a read finds its entry near its end (SessionResolver). */
  refreshWith(refresher: SessionRefresher): void {
    this.refresher = refresher;
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
    const now = this.now();
    if (entry.until <= now) {
      this.remove(entry);
      return undefined;
    }
    // Most recently used goes last; eviction takes from the front.
    this.entries.delete(sid);
    this.entries.set(sid, entry);
    if (entry.refreshAt <= now && !entry.refreshing && this.refresher) {
      entry.refreshing = true;
      this.refresher(sid);
    }
    return entry;
  }

  /** Keeps identity's answer for `sid`, unless an invalidation happened since `mark` or the cache is off. */
  set(sid: string, value: CachedSession, mark: number): void {
    const existing = this.entries.get(sid);
    if (!this.active || mark !== this.epoch) {
      // Not kept (it may predate an invalidation): a later read of the entry still there asks again.
      if (existing) existing.refreshing = false;
      return;
    }
    const now = this.now();
    const until = Math.min(now + this.opts.ttlMs, Date.parse(value.expiresAt));
    if (!(until > now)) {
      if (existing) this.remove(existing);
      return;
    }
    if (existing) this.remove(existing);
    const refreshAt = until - Math.max(1, Math.floor(this.opts.ttlMs * REFRESH_AHEAD_FRACTION * (1 + this.random())));
    const entry: Entry = { sid, userId: value.user.id, user: value.user, expiresAt: value.expiresAt, until, refreshAt, refreshing: false };
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
    this.renewals.delete(sid);
    const entry = this.entries.get(sid);
    if (entry) this.remove(entry);
  }

  /**
   * Forgets one session's entry without telling anyone (its refresh found it dead, or identity failed):
   * its next request resolves it through the route, which answers what identity says. The epoch is left
   * alone: the only call about this sid was the refresh itself, and other sessions' answers under way are
   * as good as before (bumping it would throw them away, and under an identity slowdown make more calls).
   */
  drop(sid: string): void {
    const entry = this.entries.get(sid);
    if (entry) this.remove(entry);
  }

  /**
   * Identity extended the session to `expiresAt`: the next request of it that reaches the route
   * re-issues the cookie. Kept apart from the entries (an invalidation of the user does not lose it);
   * at most maxEntries of them, the oldest going first.
   */
  noteRenewal(sid: string, expiresAt: string): void {
    this.renewals.delete(sid);
    this.renewals.set(sid, expiresAt);
    if (this.renewals.size > this.opts.maxEntries) this.renewals.delete(this.renewals.keys().next().value!);
  }

  /** Whether the session's cookie waits to be re-issued: its requests go to the route, not to the front. */
  renewalPending(sid: string): boolean {
    return this.renewals.size > 0 && this.renewals.has(sid);
  }

  /** The new expiry of the session's cookie, once: the route that resolved the session re-issues it. */
  takeRenewal(sid: string): string | undefined {
    if (this.renewals.size === 0) return undefined;
    const expiresAt = this.renewals.get(sid);
    if (expiresAt !== undefined) this.renewals.delete(sid);
    return expiresAt;
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
