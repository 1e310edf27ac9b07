import type { RewardsStandingChangedV1, UserSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { StreamerNames } from '../domain/campaign.js';

/** What campaigns knows of a person's standing, from rewards (bronze with no points until told). */
export interface PersonStanding {
  clipPoints: number;
  clipperTier: 'bronze' | 'silver' | 'gold';
  revision: number;
  at: Date | null;
}

/**
 * The people read model (`campaign_people`): identity's users as their events told them (role, names,
 * image) and rewards' standing, each part guarded by its own version (identity's updated_at, rewards'
 * revision) so events applied in any order leave the newest of each.
 */
@Injectable()
export class PeopleRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsertUser(tx: EntityManager, u: UserSnapshot): Promise<void> {
    await tx.query(
      `INSERT INTO campaign_people (user_id, role, display_name, twitter_username, profile_image_url, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, display_name = excluded.display_name, twitter_username = excluded.twitter_username,
         profile_image_url = excluded.profile_image_url, source_updated_at = excluded.source_updated_at
       WHERE campaign_people.source_updated_at IS NULL OR campaign_people.source_updated_at <= excluded.source_updated_at`,
      [u.id, u.role, u.displayName, u.twitterUsername, u.profileImageUrl, u.updatedAt],
    );
  }

  /** Keeps a standing unless a later revision is already held; answers the points tier held before, and whether it took it. */
  async applyStanding(
    tx: EntityManager,
    s: RewardsStandingChangedV1,
  ): Promise<{ applied: boolean; previousTier: PersonStanding['clipperTier'] | undefined }> {
    const before = (await tx.query('SELECT clipper_tier, standing_revision FROM campaign_people WHERE user_id = $1 FOR UPDATE', [
      s.userId,
    ])) as {
      clipper_tier: PersonStanding['clipperTier'];
      standing_revision: number;
    }[];
    const held = before[0];
    if (held && held.standing_revision >= s.revision) return { applied: false, previousTier: held.clipper_tier };
    await tx.query(
      `INSERT INTO campaign_people (user_id, clip_points, clipper_tier, standing_revision, standing_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO UPDATE SET clip_points = excluded.clip_points, clipper_tier = excluded.clipper_tier,
         standing_revision = excluded.standing_revision, standing_at = excluded.standing_at
       WHERE campaign_people.standing_revision < excluded.standing_revision`,
      [s.userId, s.clipPoints, s.clipperTier, s.revision, s.at],
    );
    return { applied: true, previousTier: held?.clipper_tier };
  }

  async standingOf(tx: EntityManager, userId: string): Promise<PersonStanding | undefined> {
    const rows = (await tx.query(
      'SELECT clip_points, clipper_tier, standing_revision, standing_at FROM campaign_people WHERE user_id = $1',
      [userId],
    )) as {
      clip_points: string;
      clipper_tier: PersonStanding['clipperTier'];
      standing_revision: number;
      standing_at: Date | null;
    }[];
    const r = rows[0];
    return r
      ? { clipPoints: Number(r.clip_points), clipperTier: r.clipper_tier, revision: r.standing_revision, at: r.standing_at }
      : undefined;
  }

  async namesOf(userId: string): Promise<StreamerNames> {
    const rows = (await this.dataSource.query('SELECT display_name, twitter_username FROM campaign_people WHERE user_id = $1', [
      userId,
    ])) as {
      display_name: string | null;
      twitter_username: string | null;
    }[];
    return { displayName: rows[0]?.display_name ?? null, twitterUsername: rows[0]?.twitter_username ?? null };
  }
}
