import type { HireStatus } from '@clipit/field-rules';
import type { HireContactMethod, HireUrgency } from '@clipit/field-rules';
import type { KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Hire } from '../domain/hire.js';

interface HireRecord {
  id: string;
  client_user_id: string | null;
  clipper_id: string;
  service_id: string | null;
  client_name: string;
  client_email: string;
  project_description: string;
  budget: string | null;
  urgency: HireUrgency;
  preferred_contact: HireContactMethod;
  contact_info: string;
  status: HireStatus;
  client_rating: number | null;
  client_review: string | null;
  clipper_notes: string | null;
  responded_at: Date | null;
  completed_at: Date | null;
  rating_token_hash: string | null;
  rated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toHire = (r: HireRecord): Hire => ({
  id: r.id,
  clientUserId: r.client_user_id,
  clipperId: r.clipper_id,
  serviceId: r.service_id,
  clientName: r.client_name,
  clientEmail: r.client_email,
  projectDescription: r.project_description,
  budget: r.budget,
  urgency: r.urgency,
  preferredContact: r.preferred_contact,
  contactInfo: r.contact_info,
  status: r.status,
  clientRating: r.client_rating,
  clientReview: r.client_review,
  clipperNotes: r.clipper_notes,
  respondedAt: r.responded_at,
  completedAt: r.completed_at,
  ratingTokenHash: r.rating_token_hash,
  ratedAt: r.rated_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function where(clipperId: string, status: HireStatus | undefined, before: KeysetPosition | undefined): { sql: string; params: unknown[] } {
  const params: unknown[] = [clipperId];
  const clauses = ['clipper_id = $1'];
  if (status) clauses.push(`status = $${params.push(status)}`);
  if (before) clauses.push(`(created_at, id) < ($${params.push(before.createdAt)}, $${params.push(before.id)})`);
  return { sql: `WHERE ${clauses.join(' AND ')}`, params };
}

/** The only code that reads or writes clipper_hires; writes take the caller's transaction. */
@Injectable()
export class HireRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, h: Hire): Promise<void> {
    await tx.query(
      `INSERT INTO clipper_hires (id, client_user_id, clipper_id, service_id, client_name, client_email, project_description, budget, urgency,
         preferred_contact, contact_info, status, rating_token_hash, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        h.id,
        h.clientUserId,
        h.clipperId,
        h.serviceId,
        h.clientName,
        h.clientEmail,
        h.projectDescription,
        h.budget,
        h.urgency,
        h.preferredContact,
        h.contactInfo,
        h.status,
        h.ratingTokenHash,
        h.createdAt,
        h.updatedAt,
      ],
    );
  }

  async lock(tx: EntityManager, id: string): Promise<Hire | undefined> {
    const rows = (await tx.query('SELECT * FROM clipper_hires WHERE id = $1 FOR UPDATE', [id])) as HireRecord[];
    return rows[0] ? toHire(rows[0]) : undefined;
  }

  /** Writes an answer: status, notes and their times. */
  async save(tx: EntityManager, h: Hire): Promise<void> {
    await tx.query(
      'UPDATE clipper_hires SET status = $2, clipper_notes = $3, responded_at = $4, completed_at = $5, updated_at = $6 WHERE id = $1',
      [h.id, h.status, h.clipperNotes, h.respondedAt, h.completedAt, h.updatedAt],
    );
  }

  /** Writes the client's rating: once, on a completed hire (the table's check holds it too). */
  async saveRating(tx: EntityManager, h: Hire): Promise<void> {
    await tx.query('UPDATE clipper_hires SET client_rating = $2, client_review = $3, rated_at = $4, updated_at = $5 WHERE id = $1', [
      h.id,
      h.clientRating,
      h.clientReview,
      h.ratedAt,
      h.updatedAt,
    ]);
  }

  /** The clipper's rating figures over every rated hire: the average (two decimals, as text) and the count. */
  async ratingOf(tx: EntityManager, clipperId: string): Promise<{ averageRating: string; totalReviews: number }> {
    const rows = (await tx.query(
      `SELECT COALESCE(round(avg(client_rating), 2), 0)::text AS average, count(client_rating)::int AS total
       FROM clipper_hires WHERE clipper_id = $1 AND client_rating IS NOT NULL`,
      [clipperId],
    )) as { average: string; total: number }[];
    return { averageRating: rows[0]!.average, totalReviews: rows[0]!.total };
  }

  /** `limit` of the clipper's requests strictly older than `before`, newest first (clipper_hires_clipper_idx). */
  async listPage(clipperId: string, status: HireStatus | undefined, limit: number, before: KeysetPosition | undefined): Promise<Hire[]> {
    const w = where(clipperId, status, before);
    const rows = (await this.dataSource.query(
      `SELECT * FROM clipper_hires ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ${Number(limit)}`,
      w.params,
    )) as HireRecord[];
    return rows.map(toHire);
  }

  async count(clipperId: string, status: HireStatus | undefined): Promise<number> {
    const w = where(clipperId, status, undefined);
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS n FROM clipper_hires ${w.sql}`, w.params)) as { n: number }[];
    return rows[0]!.n;
  }
}
