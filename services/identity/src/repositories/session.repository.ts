import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionEntity } from '../entities/session.entity.js';
import { UserEntity } from '../entities/user.entity.js';

export interface ResolvedSession {
  user: UserEntity;
  expire: Date;
  lastSeenAt: Date | null;
}

/** The sessions table. Every method takes the stored key (the hash of the browser's id). */
@Injectable()
export class SessionRepository {
  private resolveSql: string | undefined;

  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, session: SessionEntity): Promise<void> {
    await tx.getRepository(SessionEntity).insert(session);
  }

  /** One live session by stored key (a request the gateway's cache could not answer), or undefined. */
  async resolve(key: string): Promise<ResolvedSession | undefined> {
    return (await this.resolveMany([key])).get(key);
  }

  /**
   * Live sessions by stored key, keys of none left out: one query over the sessions' primary key joined
   * to their users' primary key (the gateway's hot path: a session it has not cached, and its refresh
   * ahead of those it has). Plain SQL, because the query builder's per-call work costs several times the
   * query itself here; the column list comes from the entity's metadata.
   */
  async resolveMany(keys: readonly string[]): Promise<Map<string, ResolvedSession>> {
    const found = new Map<string, ResolvedSession>();
    if (keys.length === 0) return found;
    this.resolveSql ??= this.buildResolveSql();
    const rows = (await this.dataSource.query(this.resolveSql, [keys])) as Array<
      UserEntity & { sessionExpire: Date; sessionSeen: Date | null; sessionKey: string }
    >;
    for (const { sessionExpire, sessionSeen, sessionKey, ...user } of rows)
      found.set(sessionKey, { user: Object.assign(new UserEntity(), user), expire: sessionExpire, lastSeenAt: sessionSeen });
    return found;
  }

  private buildResolveSql(): string {
    const columns = this.dataSource
      .getMetadata(UserEntity)
      .columns.map((c) => `u."${c.databaseName}" AS "${c.propertyName}"`)
      .join(', ');
    return `SELECT ${columns}, s.sid AS "sessionKey", s.expire AS "sessionExpire", s.last_seen_at AS "sessionSeen"
      FROM sessions s JOIN users u ON u.id = (s.sess ->> 'userId')::uuid
      WHERE s.sid = ANY($1::text[]) AND s.expire > now()`;
  }

  /** Moves the expiry forward (never backward, should two requests race). */
  async extend(key: string, expire: Date): Promise<void> {
    await this.dataSource.manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ expire })
      .where('sid = :key', { key })
      .andWhere('expire < :expire', { expire })
      .execute();
  }

  /** Deletes one session inside the caller's transaction; answers whose it was, or undefined when there was none. */
  async delete(tx: EntityManager, key: string): Promise<string | undefined> {
    const rows = (await tx.query(`DELETE FROM sessions WHERE sid = $1 RETURNING sess ->> 'userId' AS "userId"`, [key])) as [
      Array<{ userId: string | null }>,
      number,
    ];
    return rows[0][0]?.userId ?? undefined;
  }

  /** Deletes the user's sessions, but the one stored under `except` when given; answers how many went. */
  async deleteForUser(tx: EntityManager, userId: string, except?: string): Promise<number> {
    const query = tx.createQueryBuilder().delete().from(SessionEntity).where(`sess ->> 'userId' = :userId`, { userId });
    if (except) query.andWhere('sid <> :except', { except });
    const result = await query.execute();
    return result.affected ?? 0;
  }

  /** The user's sessions that have not expired. */
  listForUser(userId: string): Promise<SessionEntity[]> {
    return this.dataSource.manager
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .where(`s.sess ->> 'userId' = :userId`, { userId })
      .andWhere('s.expire > now()')
      .getMany();
  }

  async find(key: string): Promise<SessionEntity | undefined> {
    return (await this.dataSource.manager.getRepository(SessionEntity).findOneBy({ sid: key })) ?? undefined;
  }

  /** Sets last_seen_at to `at` unless it was set after `notAfter` (another request got there first). */
  async touch(key: string, at: Date, notAfter: Date): Promise<void> {
    await this.dataSource.query('UPDATE sessions SET last_seen_at = $2 WHERE sid = $1 AND (last_seen_at IS NULL OR last_seen_at <= $3)', [
      key,
      at,
      notAfter,
    ]);
  }

  /** Removes up to `limit` expired sessions; answers how many went. */
  async deleteExpired(limit: number): Promise<number> {
    const result = await this.dataSource.manager
      .createQueryBuilder()
      .delete()
      .from(SessionEntity)
      .where('sid IN (SELECT sid FROM sessions WHERE expire <= now() LIMIT :limit)', { limit })
      .execute();
    return result.affected ?? 0;
  }

  countForUser(userId: string): Promise<number> {
    return this.dataSource.manager
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .where(`s.sess ->> 'userId' = :userId`, { userId })
      .andWhere('s.expire > now()')
      .getCount();
  }
}
