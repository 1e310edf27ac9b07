import type { UserSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A person as rewards keeps them: a payout's wallet, a streamer's multiplier inputs. */
export interface Person {
  id: string;
  role: string;
  displayName: string | null;
  twitterUsername: string | null;
  walletAddress: string | null;
  /** When identity last saw the wallet replaced (ADR 0032: payouts to it wait 72 hours from then); null when never. */
  walletChangedAt: Date | null;
  /** Set by an admin (1.00 to 2.00); 1.00 means 'by follower count'. */
  streamerMultiplier: number;
  followerCount: number;
}

interface PersonRecord {
  id: string;
  role: string;
  display_name: string | null;
  twitter_username: string | null;
  wallet_address: string | null;
  wallet_changed_at: Date | null;
  streamer_multiplier: string;
  follower_count: number;
}

const toPerson = (r: PersonRecord): Person => ({
  id: r.id,
  role: r.role,
  displayName: r.display_name,
  twitterUsername: r.twitter_username,
  walletAddress: r.wallet_address,
  walletChangedAt: r.wallet_changed_at,
  streamerMultiplier: Number(r.streamer_multiplier),
  followerCount: r.follower_count,
});

/** A person's multiplier inputs and what was last published of it. */
export interface MultiplierRecord {
  id: string;
  role: string;
  streamerMultiplier: number;
  followerCount: number;
  appliedMultiplier: number | null;
  revision: number;
}

/** Where a payout goes, and whether that wallet is new (ADR 0032). */
export interface Payee {
  walletAddress: string | null;
  walletChangedAt: Date | null;
}

/**
 * The people read model (`people`): identity's users as their events told them, plus streamers' follower
 * counts from social's follow events. Older news never overwrites newer: a user row carries identity's
 * updated_at, a follower count the time of its change.
 */
@Injectable()
export class PeopleRepository {
  /**
   * The user as the snapshot tells, unless the row holds a newer one. `walletChangedAt` absent (events
   * written before identity stamped it) keeps the stored stamp; null clears it.
   */
  async upsertUser(tx: EntityManager, u: UserSnapshot): Promise<void> {
    await tx.query(
      `INSERT INTO people (id, role, display_name, twitter_username, wallet_address, wallet_changed_at, streamer_multiplier, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET role = excluded.role, display_name = excluded.display_name, twitter_username = excluded.twitter_username,
         wallet_address = excluded.wallet_address,
         wallet_changed_at = CASE WHEN $9::boolean THEN excluded.wallet_changed_at ELSE people.wallet_changed_at END,
         streamer_multiplier = excluded.streamer_multiplier, source_updated_at = excluded.source_updated_at
       WHERE people.source_updated_at IS NULL OR people.source_updated_at <= excluded.source_updated_at`,
      [
        u.id,
        u.role,
        u.displayName,
        u.twitterUsername,
        u.walletAddress,
        u.walletChangedAt ?? null,
        u.streamerMultiplier,
        u.updatedAt,
        u.walletChangedAt !== undefined,
      ],
    );
  }

  /** A streamer's follower count after a follow or unfollow at `at`; an older count is ignored. */
  async setFollowerCount(tx: EntityManager, userId: string, followerCount: number, at: string): Promise<void> {
    await tx.query(
      `INSERT INTO people (id, role, follower_count, follower_count_at) VALUES ($1, 'user', $2, $3)
       ON CONFLICT (id) DO UPDATE SET follower_count = excluded.follower_count, follower_count_at = excluded.follower_count_at
       WHERE people.follower_count_at IS NULL OR people.follower_count_at <= excluded.follower_count_at`,
      [userId, followerCount, at],
    );
  }

  async find(tx: EntityManager, id: string): Promise<Person | undefined> {
    const rows = (await tx.query(
      'SELECT id, role, display_name, twitter_username, wallet_address, wallet_changed_at, streamer_multiplier, follower_count FROM people WHERE id = $1',
      [id],
    )) as PersonRecord[];
    return rows[0] ? toPerson(rows[0]) : undefined;
  }

  /** The person's multiplier inputs and last published multiplier, locked until the transaction ends (a read-modify-write). */
  async lockMultiplier(tx: EntityManager, id: string): Promise<MultiplierRecord | undefined> {
    const rows = (await tx.query(
      `SELECT id, role, streamer_multiplier, follower_count, applied_multiplier, multiplier_revision FROM people WHERE id = $1 FOR UPDATE`,
      [id],
    )) as {
      id: string;
      role: string;
      streamer_multiplier: string;
      follower_count: number;
      applied_multiplier: string | null;
      multiplier_revision: number;
    }[];
    const r = rows[0];
    if (!r) return undefined;
    return {
      id: r.id,
      role: r.role,
      streamerMultiplier: Number(r.streamer_multiplier),
      followerCount: r.follower_count,
      appliedMultiplier: r.applied_multiplier === null ? null : Number(r.applied_multiplier),
      revision: r.multiplier_revision,
    };
  }

  async saveAppliedMultiplier(tx: EntityManager, id: string, multiplier: number, revision: number): Promise<void> {
    await tx.query('UPDATE people SET applied_multiplier = $2, multiplier_revision = $3 WHERE id = $1', [id, multiplier, revision]);
  }

  /** Streamers' ids after `afterId`, in id order (the daily recompute's batches). */
  async streamerIdsAfter(tx: EntityManager, afterId: string | null, limit: number): Promise<string[]> {
    const rows = (await tx.query(
      "SELECT id FROM people WHERE role = 'streamer' AND ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2",
      [afterId, limit],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Wallets of these people (a payout run's recipients), with when each was last replaced; people unknown here are absent. */
  async wallets(tx: EntityManager, ids: readonly string[]): Promise<Map<string, Payee>> {
    if (ids.length === 0) return new Map();
    const rows = (await tx.query('SELECT id, wallet_address, wallet_changed_at FROM people WHERE id = ANY($1::uuid[])', [ids])) as {
      id: string;
      wallet_address: string | null;
      wallet_changed_at: Date | null;
    }[];
    return new Map(rows.map((r) => [r.id, { walletAddress: r.wallet_address, walletChangedAt: r.wallet_changed_at }]));
  }
}
