import { randomUUID } from 'node:crypto';
import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PersonRow } from '../domain/person.js';
import { toPerson } from './people.repository.js';

export interface FollowerRow extends PersonRow {
  /** When the follow began, and its id: the keyset position of the followers list. */
  createdAt: Date;
  followId: string;
}

export interface LiveFollowedRow extends PersonRow {
  livePeriod: number;
  liveSince: Date;
}

/** The only code reading or writing `followers`; writes take the caller's transaction. */
@Injectable()
export class FollowRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds the pair; false when it was already there (the unique pair decides, so two at once add one row). */
  async add(tx: EntityManager, followerId: string, userId: string, at: Date): Promise<boolean> {
    const rows = (await tx.query(
      `INSERT INTO followers (id, follower_id, following_id, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT followers_pair_key DO NOTHING RETURNING id`,
      [randomUUID(), followerId, userId, at],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Removes the pair; false when there was none. */
  async remove(tx: EntityManager, followerId: string, userId: string): Promise<boolean> {
    const [, affected] = (await tx.query('DELETE FROM followers WHERE follower_id = $1 AND following_id = $2', [followerId, userId])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }

  async isFollowing(followerId: string, userId: string): Promise<boolean> {
    const rows = (await this.dataSource.query('SELECT 1 FROM followers WHERE follower_id = $1 AND following_id = $2', [
      followerId,
      userId,
    ])) as unknown[];
    return rows.length > 0;
  }

  async count(userId: string, tx: EntityManager = this.dataSource.manager): Promise<number> {
    const rows = (await tx.query('SELECT count(*)::int AS n FROM followers WHERE following_id = $1', [userId])) as { n: number }[];
    return rows[0]!.n;
  }

  /**
   * `limit` followers of `userId` who followed strictly before `before`, newest first
   * (index followers_following_idx). A follower social has not heard of yet is listed by id alone.
   */
  async listPage(userId: string, limit: number, before: KeysetPosition | undefined): Promise<FollowerRow[]> {
    const params: unknown[] = [userId, limit];
    let where = 'f.following_id = $1';
    if (before) {
      params.push(before.createdAt, before.id);
      where += ' AND (f.created_at, f.id) < ($3, $4)';
    }
    const rows = (await this.dataSource.query(
      `SELECT f.id AS follow_id, f.created_at, f.follower_id AS id, coalesce(p.role, 'user') AS role, p.display_name,
              p.twitter_username, p.profile_image_url, coalesce(p.source_updated_at, f.created_at) AS source_updated_at
         FROM followers f LEFT JOIN people p ON p.id = f.follower_id
        WHERE ${where}
        ORDER BY f.created_at DESC, f.id DESC
        LIMIT $2`,
      params,
    )) as (Parameters<typeof toPerson>[0] & { follow_id: string; created_at: Date })[];
    return rows.map((r) => ({ ...toPerson(r), createdAt: r.created_at, followId: r.follow_id }));
  }

  /** The streamers `followerId` follows who are live now, most recently live first. */
  async liveFollowed(followerId: string): Promise<LiveFollowedRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT p.*, l.live_period, l.live_since
         FROM followers f
         JOIN live_states l ON l.user_id = f.following_id AND l.is_live
         JOIN people p ON p.id = f.following_id
        WHERE f.follower_id = $1
        ORDER BY l.live_since DESC, p.id`,
      [followerId],
    )) as (Parameters<typeof toPerson>[0] & { live_period: string; live_since: Date })[];
    return rows.map((r) => ({ ...toPerson(r), livePeriod: Number(r.live_period), liveSince: r.live_since }));
  }

  /** The ones of `candidates` who follow `streamerId`. */
  async followersAmong(streamerId: string, candidates: readonly string[]): Promise<string[]> {
    if (candidates.length === 0) return [];
    const rows = (await this.dataSource.query(
      'SELECT follower_id FROM followers WHERE following_id = $1 AND follower_id = ANY($2::uuid[])',
      [streamerId, candidates],
    )) as { follower_id: string }[];
    return rows.map((r) => r.follower_id);
  }
}
