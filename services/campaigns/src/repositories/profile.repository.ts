import { randomUUID } from 'node:crypto';
import type { RewardsStandingChangedV1, UserSnapshot } from '@clipit/contracts';
import type { ClipperProfileDraft, ClipperServiceDraft } from '@clipit/field-rules';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { displayNameOf, type ClipperProfile, type ClipperServiceRow } from '../domain/profile.js';
import type { PersonStanding } from './people.repository.js';

interface ProfileRecord {
  id: string;
  user_id: string;
  display_name: string;
  twitter_username: string | null;
  bio: string | null;
  profile_image_url: string | null;
  portfolio_urls: string[];
  specialties: string[];
  years_experience: number | null;
  hourly_rate: string | null;
  is_available: 'true' | 'false';
  total_hires: number;
  average_rating: string;
  total_reviews: number;
  social_links: string[];
  clip_points: string;
  clipper_tier: ClipperProfile['clipperTier'];
  last_clip_points_update: Date | null;
  last_approved_clip_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toProfile = (r: ProfileRecord): ClipperProfile => ({
  id: r.id,
  userId: r.user_id,
  displayName: r.display_name,
  twitterUsername: r.twitter_username,
  bio: r.bio,
  profileImageUrl: r.profile_image_url,
  portfolioUrls: r.portfolio_urls,
  specialties: r.specialties,
  yearsExperience: r.years_experience,
  hourlyRate: r.hourly_rate,
  isAvailable: r.is_available,
  totalHires: r.total_hires,
  averageRating: r.average_rating,
  totalReviews: r.total_reviews,
  socialLinks: r.social_links,
  clipPoints: Number(r.clip_points),
  clipperTier: r.clipper_tier,
  lastClipPointsUpdate: r.last_clip_points_update,
  lastApprovedClipDate: r.last_approved_clip_date,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

interface ServiceRecord {
  id: string;
  service_name: string;
  description: string | null;
  base_price: string | null;
  delivery_time_hours: number | null;
  is_active: boolean;
}

const toService = (r: ServiceRecord): ClipperServiceRow => ({
  id: r.id,
  serviceName: r.service_name,
  description: r.description,
  basePrice: r.base_price,
  deliveryTimeHours: r.delivery_time_hours,
  isActive: r.is_active,
});

/**
 * The only code that reads or writes clipper_profiles and clipper_services. A profile is made from
 * identity's events (its names and image guarded by identity's updated_at) and carries rewards' standing
 * (guarded by the standing's revision); the owner's edits change the rest.
 */
@Injectable()
export class ProfileRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string, tx: EntityManager = this.dataSource.manager): Promise<ClipperProfile | undefined> {
    const rows = (await tx.query('SELECT * FROM clipper_profiles WHERE user_id = $1', [userId])) as ProfileRecord[];
    return rows[0] ? toProfile(rows[0]) : undefined;
  }

  /** The profile, locked for the caller's transaction (a hire or an edit against it). */
  async lock(tx: EntityManager, userId: string): Promise<ClipperProfile | undefined> {
    const rows = (await tx.query('SELECT * FROM clipper_profiles WHERE user_id = $1 FOR UPDATE', [userId])) as ProfileRecord[];
    return rows[0] ? toProfile(rows[0]) : undefined;
  }

  /**
   * Makes the clipper's profile, or refreshes its names and image unless it holds newer ones; a new one
   * takes the standing already known. True when it wrote.
   */
  async upsertFromUser(tx: EntityManager, u: UserSnapshot, standing: PersonStanding | undefined, now: Date): Promise<boolean> {
    const rows = await tx.query(
      `INSERT INTO clipper_profiles (id, user_id, display_name, twitter_username, profile_image_url, identity_updated_at, clip_points, clipper_tier,
         standing_revision, last_clip_points_update, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
       ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, twitter_username = excluded.twitter_username,
         profile_image_url = excluded.profile_image_url, identity_updated_at = excluded.identity_updated_at, updated_at = excluded.updated_at
       WHERE clipper_profiles.identity_updated_at IS NULL OR clipper_profiles.identity_updated_at <= excluded.identity_updated_at
       RETURNING id`,
      [
        randomUUID(),
        u.id,
        displayNameOf(u),
        u.twitterUsername,
        u.profileImageUrl,
        u.updatedAt,
        standing?.clipPoints ?? 0,
        standing?.clipperTier ?? 'bronze',
        standing?.revision ?? 0,
        standing?.at ?? null,
        now,
      ],
    );
    return rowsOf(rows).length > 0;
  }

  /**
   * Up to `limit` profiles never told (revision 0: made before clipper-profile.changed existed), locked
   * for this transaction and skipped by another replica's, so each is told once.
   */
  async lockUntold(tx: EntityManager, limit: number): Promise<string[]> {
    const rows = rowsOf(
      await tx.query('SELECT user_id FROM clipper_profiles WHERE revision = 0 ORDER BY user_id LIMIT $1 FOR UPDATE SKIP LOCKED', [limit]),
    ) as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  /**
   * The profile with its next revision (clipper-profile.changed's), counted in the caller's transaction;
   * undefined without a profile.
   */
  async nextRevision(tx: EntityManager, userId: string): Promise<{ profile: ClipperProfile; revision: number } | undefined> {
    const rows = rowsOf(
      await tx.query('UPDATE clipper_profiles SET revision = revision + 1 WHERE user_id = $1 RETURNING *', [userId]),
    ) as (ProfileRecord & { revision: number })[];
    return rows[0] ? { profile: toProfile(rows[0]), revision: rows[0].revision } : undefined;
  }

  /** Applies a standing to the profile, if there is one, unless it holds a later revision. */
  async applyStanding(tx: EntityManager, s: RewardsStandingChangedV1, now: Date): Promise<boolean> {
    const rows = (await tx.query(
      `UPDATE clipper_profiles SET clip_points = $2, clipper_tier = $3, standing_revision = $4, last_clip_points_update = $5, updated_at = $6
       WHERE user_id = $1 AND standing_revision < $4 RETURNING id`,
      [s.userId, s.clipPoints, s.clipperTier, s.revision, s.at, now],
    )) as [unknown[], number] | unknown[];
    return rowsOf(rows).length > 0;
  }

  /**
   * The first time a profile is gold, marks it so; answers true when it has just become so and lists no
   * services (the caller then gives it the packages).
   */
  async markFirstGold(tx: EntityManager, userId: string, now: Date): Promise<boolean> {
    const rows = rowsOf(
      await tx.query(
        `UPDATE clipper_profiles SET packages_offered_at = $2 WHERE user_id = $1 AND clipper_tier = 'gold' AND packages_offered_at IS NULL
         RETURNING (SELECT count(*)::int FROM clipper_services WHERE clipper_id = $1) AS services`,
        [userId, now],
      ),
    ) as { services: number }[];
    return rows.length > 0 && rows[0]!.services === 0;
  }

  /** The latest approval among the clipper's clips, if they have a profile. */
  async noteApprovedClip(tx: EntityManager, userId: string, approvedAt: string): Promise<void> {
    await tx.query(
      `UPDATE clipper_profiles SET last_approved_clip_date = $2 WHERE user_id = $1 AND (last_approved_clip_date IS NULL OR last_approved_clip_date < $2)`,
      [userId, approvedAt],
    );
  }

  /** The owner's edit: only the fields the draft holds. */
  async update(tx: EntityManager, userId: string, draft: ClipperProfileDraft, now: Date): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [userId];
    const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value)}`);
    if (draft.bio !== undefined) set('bio', draft.bio);
    if (draft.portfolioUrls !== undefined) set('portfolio_urls', draft.portfolioUrls);
    if (draft.specialties !== undefined) set('specialties', draft.specialties);
    if (draft.socialLinks !== undefined) set('social_links', draft.socialLinks);
    if (draft.yearsExperience !== undefined) set('years_experience', draft.yearsExperience);
    if (draft.hourlyRate !== undefined) set('hourly_rate', draft.hourlyRate);
    if (draft.isAvailable !== undefined) set('is_available', draft.isAvailable);
    set('updated_at', now);
    await tx.query(`UPDATE clipper_profiles SET ${sets.join(', ')} WHERE user_id = $1`, params);
  }

  async incrementHires(tx: EntityManager, userId: string, now: Date): Promise<void> {
    await tx.query('UPDATE clipper_profiles SET total_hires = total_hires + 1, updated_at = $2 WHERE user_id = $1', [userId, now]);
  }

  /** The clipper's rating figures, as the hires they were counted from stand in the caller's transaction. */
  async setRating(tx: EntityManager, userId: string, averageRating: string, totalReviews: number, now: Date): Promise<void> {
    await tx.query('UPDATE clipper_profiles SET average_rating = $2, total_reviews = $3, updated_at = $4 WHERE user_id = $1', [
      userId,
      averageRating,
      totalReviews,
      now,
    ]);
  }

  async services(userId: string, tx: EntityManager = this.dataSource.manager): Promise<ClipperServiceRow[]> {
    const rows = (await tx.query(
      'SELECT id, service_name, description, base_price, delivery_time_hours, is_active FROM clipper_services WHERE clipper_id = $1 ORDER BY position',
      [userId],
    )) as ServiceRecord[];
    return rows.map(toService);
  }

  /** Replaces the clipper's services with `services`, in their order. */
  async replaceServices(tx: EntityManager, userId: string, services: readonly ClipperServiceDraft[], now: Date): Promise<void> {
    await tx.query('DELETE FROM clipper_services WHERE clipper_id = $1', [userId]);
    for (const [position, s] of services.entries()) {
      await tx.query(
        `INSERT INTO clipper_services (id, clipper_id, position, service_name, description, base_price, delivery_time_hours, is_active, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        [randomUUID(), userId, position, s.serviceName, s.description, s.basePrice, s.deliveryTimeHours, s.isActive, now],
      );
    }
  }
}

/** TypeORM answers an UPDATE … RETURNING as [rows, count] with the pg driver. */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as unknown[];
  return result as unknown[];
}
