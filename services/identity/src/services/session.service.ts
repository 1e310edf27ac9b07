import { CONFIG, LOGGER, unauthenticated } from '@clipit/service-kit';
import type { identityV1 } from '@clipit/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { IdentityConfig } from '../config.js';
import { messages } from '../domain/messages.js';
import { deviceOf, networkOf } from '../domain/session-device.js';
import { generateSessionId, isWellFormedSessionId, sessionKey, sessionReference } from '../domain/session-token.js';
import type { SignInMethod } from '../entities/session.entity.js';
import type { UserEntity } from '../entities/user.entity.js';
import { SessionRepository, type ResolvedSession } from '../repositories/session.repository.js';

const SWEEP_BATCH = 1000;
/** A session's last_seen_at is written at most this often: resolving a session stays a read almost always. */
export const SEEN_INTERVAL_MS = 5 * 60_000;
/** How fresh a sign-in with X must be to stand in for a password (a wallet change, ADR 0032). */
export const RECENT_X_SIGN_IN_MS = 10 * 60_000;

export interface ActiveSession {
  user: UserEntity;
  expiresAt: Date;
  renewed: boolean;
}

export interface ClientDetails {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/** The client's address as identity records it (sessions, resets): at most 64 characters, null when unknown. */
export const clientIp = (client: ClientDetails | undefined): string | null => (client?.ip ? client.ip.slice(0, 64) : null);

/**
 * Server-side sessions with a rolling expiry. A session is extended only once less than half its
 * lifetime is left, so the gateway's per-request check is a read and almost never a write.
 */
@Injectable()
export class SessionService {
  private readonly ttlMs: number;

  constructor(
    private readonly sessions: SessionRepository,
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.ttlMs = config.SESSION_TTL_SECONDS * 1000;
  }

  /** Writes a new session inside the caller's transaction and answers the id for the cookie. */
  async create(
    tx: EntityManager,
    userId: string,
    client: ClientDetails | undefined,
    method: SignInMethod,
    now = new Date(),
  ): Promise<identityV1.Session> {
    const sid = generateSessionId();
    const expire = new Date(now.getTime() + this.ttlMs);
    await this.sessions.insert(tx, {
      sid: sessionKey(sid),
      sess: {
        userId,
        ip: clientIp(client),
        userAgent: client?.userAgent ? client.userAgent.slice(0, 512) : null,
        createdAt: now.toISOString(),
        method,
      },
      expire,
      lastSeenAt: now,
    });
    return { sid, expiresAt: expire.toISOString() };
  }

  /** The signed-in user, the session's expiry after this call, and whether this call moved it. */
  async resolve(sid: string | undefined): Promise<ActiveSession> {
    if (!isWellFormedSessionId(sid)) throw unauthenticated(messages.notSignedIn);
    const key = sessionKey(sid);
    const found = await this.sessions.resolve(key);
    if (!found) throw unauthenticated(messages.notSignedIn);
    return this.inUse(key, found);
  }

  /**
   * Several sessions at once, each as `resolve` answers it (seen, extended when due); ids that are not
   * well formed or name no live session are left out. Answers sid → session.
   */
  async resolveMany(sids: readonly string[]): Promise<Map<string, ActiveSession>> {
    const keys = new Map<string, string>();
    for (const sid of sids) if (isWellFormedSessionId(sid)) keys.set(sessionKey(sid), sid);
    const found = await this.sessions.resolveMany([...keys.keys()]);
    const answers = new Map<string, ActiveSession>();
    // Seen and extended one by one: each is due once in minutes (a write), the rest is the one read above.
    for (const [key, session] of found) answers.set(keys.get(key)!, await this.inUse(key, session));
    return answers;
  }

  /** A live session just read: its last use recorded (at most every SEEN_INTERVAL_MS), extended past half its life. */
  private async inUse(key: string, found: ResolvedSession): Promise<ActiveSession> {
    const now = Date.now();
    if (!found.lastSeenAt || now - found.lastSeenAt.getTime() >= SEEN_INTERVAL_MS) await this.seen(key, new Date(now));
    if (found.expire.getTime() - now >= this.ttlMs / 2) return { user: found.user, expiresAt: found.expire, renewed: false };
    const expiresAt = new Date(now + this.ttlMs);
    try {
      await this.sessions.extend(key, expiresAt);
      return { user: found.user, expiresAt, renewed: true };
    } catch (err) {
      // A failed extension must not sign the person out: the session is still valid as it is.
      this.logger.warn({ err }, 'could not extend a session');
      return { user: found.user, expiresAt: found.expire, renewed: false };
    }
  }

  /**
   * Ends one session inside the caller's transaction (whose outbox says so); answers whose it was and the
   * key it was stored under, or undefined for an unknown id (not an error).
   */
  async end(tx: EntityManager, sid: string | undefined): Promise<{ userId: string; key: string } | undefined> {
    if (!isWellFormedSessionId(sid)) return undefined;
    const key = sessionKey(sid);
    const userId = await this.sessions.delete(tx, key);
    return userId ? { userId, key } : undefined;
  }

  endAllForUser(tx: EntityManager, userId: string): Promise<number> {
    return this.sessions.deleteForUser(tx, userId);
  }

  /** Ends every session of the account but `sid` inside the caller's transaction; answers how many ended. */
  endOthers(tx: EntityManager, userId: string, sid: string): Promise<number> {
    return this.sessions.deleteForUser(tx, userId, isWellFormedSessionId(sid) ? sessionKey(sid) : undefined);
  }

  /** The account's active sessions as its Profile tab lists them: the caller's (`sid`) first, then the most recently seen. */
  async list(userId: string, sid: string | undefined): Promise<identityV1.ActiveSession[]> {
    const current = isWellFormedSessionId(sid) ? sessionKey(sid) : undefined;
    const rows = await this.sessions.listForUser(userId);
    return rows
      .map((row) => ({
        id: sessionReference(row.sid),
        device: deviceOf(row.sess.userAgent),
        address: networkOf(row.sess.ip),
        createdAt: row.sess.createdAt,
        lastSeenAt: (row.lastSeenAt ?? new Date(row.sess.createdAt)).toISOString(),
        method: row.sess.method,
        current: row.sid === current,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
  }

  /** Whether `sid` is a live session of `userId` made by a sign-in with X within RECENT_X_SIGN_IN_MS of `now`. */
  async isRecentXSignIn(userId: string, sid: string | undefined, now = new Date()): Promise<boolean> {
    if (!isWellFormedSessionId(sid)) return false;
    const row = await this.sessions.find(sessionKey(sid));
    if (!row || row.sess.userId !== userId || row.sess.method !== 'x' || row.expire <= now) return false;
    return now.getTime() - Date.parse(row.sess.createdAt) <= RECENT_X_SIGN_IN_MS;
  }

  /** Records that the session was used (best effort: a failed write must not sign anyone out). */
  private async seen(key: string, at: Date): Promise<void> {
    try {
      await this.sessions.touch(key, at, new Date(at.getTime() - SEEN_INTERVAL_MS));
    } catch (err) {
      this.logger.warn({ err }, 'could not record when a session was seen');
    }
  }

  /** Deletes expired sessions in batches; answers how many went. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.sessions.deleteExpired(SWEEP_BATCH);
      total += deleted;
      if (deleted < SWEEP_BATCH) return total;
    }
  }
}
