import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ApiKeyRow } from '../domain/api-key.js';

/** What a new key's row is made of; the repository gives it its id. */
export interface ApiKeyDraft {
  userId: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: string[];
  expiresAt: Date | null;
  createdAt: Date;
}

/** The key a live key authenticates as. */
export interface ApiKeyPrincipalRow {
  id: string;
  userId: string;
  scopes: string[];
  expiresAt: Date | null;
}

interface Row {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, user_id, name, prefix, scopes, expires_at, created_at, last_used_at';

const toRow = (r: Row): ApiKeyRow => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

// How long a noted last use stands before another use is written over it.
const LAST_USE_GRANULARITY = '1 minute';

/** The only code reading or writing `api_keys`; writes take the caller's transaction. */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Holds the user's keys still until the transaction ends: a transaction-level advisory lock on the user,
   * so two creates at once count one after the other (there is no row of the user's to lock).
   */
  async lockUser(tx: EntityManager, userId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('developer:api-keys:' || $1, 0))`, [userId]);
  }

  /** The user's keys that still work at `now`: not revoked, not expired (index api_keys_user_live_idx). */
  async countLive(tx: EntityManager, userId: string, now: Date): Promise<number> {
    const rows = (await tx.query(
      `SELECT count(*)::int AS n FROM api_keys
        WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [userId, now],
    )) as { n: number }[];
    return rows[0]!.n;
  }

  async insert(tx: EntityManager, draft: ApiKeyDraft): Promise<ApiKeyRow> {
    const rows = (await tx.query(
      `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, scopes, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [randomUUID(), draft.userId, draft.name, draft.prefix, draft.hash, draft.scopes, draft.expiresAt, draft.createdAt],
    )) as Row[];
    return toRow(rows[0]!);
  }

  /** The user's keys not revoked (expired ones too), newest first. */
  async listForUser(userId: string): Promise<ApiKeyRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id DESC`,
      [userId],
    )) as Row[];
    return rows.map(toRow);
  }

  /**
   * Revokes the user's key, once: false when there is no such key of theirs or it was revoked before (two
   * revokes at once: the second waits on the row and then finds it revoked).
   */
  async revoke(tx: EntityManager, userId: string, keyId: string, at: Date): Promise<boolean> {
    const [, affected] = (await tx.query('UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
      keyId,
      userId,
      at,
    ])) as [unknown, number];
    return affected > 0;
  }

  /** The live key stored under `hash` at `now` (the unique key_hash index), or undefined. */
  async findLiveByHash(hash: string, now: Date): Promise<ApiKeyPrincipalRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT id, user_id, scopes, expires_at FROM api_keys
        WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [hash, now],
    )) as Pick<Row, 'id' | 'user_id' | 'scopes' | 'expires_at'>[];
    const row = rows[0];
    return row && { id: row.id, userId: row.user_id, scopes: row.scopes, expiresAt: row.expires_at };
  }

  /**
   * Notes a use at `at`, only when none was noted in the minute before it: a key used on every request
   * writes its row about once a minute, not per request. True when it wrote.
   */
  async noteUse(keyId: string, at: Date): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = $2
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '${LAST_USE_GRANULARITY}')`,
      [keyId, at],
    )) as [unknown, number];
    return affected > 0;
  }
}
