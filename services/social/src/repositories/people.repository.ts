import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PersonRow } from '../domain/person.js';

interface PersonRecord {
  id: string;
  role: PersonRow['role'];
  display_name: string | null;
  twitter_username: string | null;
  profile_image_url: string | null;
  source_updated_at: Date;
}

export const toPerson = (r: PersonRecord): PersonRow => ({
  id: r.id,
  role: r.role,
  displayName: r.display_name,
  twitterUsername: r.twitter_username,
  profileImageUrl: r.profile_image_url,
  sourceUpdatedAt: r.source_updated_at,
});

/** The people read model (identity's users, as their events told them): the only code touching `people`. */
@Injectable()
export class PeopleRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(id: string, tx: EntityManager = this.dataSource.manager): Promise<PersonRow | undefined> {
    const rows = (await tx.query('SELECT * FROM people WHERE id = $1', [id])) as PersonRecord[];
    return rows[0] ? toPerson(rows[0]) : undefined;
  }

  /** Locks the person's row until the transaction ends: follows of one streamer take turns, so each counts exactly. */
  async lock(tx: EntityManager, id: string): Promise<void> {
    await tx.query('SELECT 1 FROM people WHERE id = $1 FOR UPDATE', [id]);
  }

  /**
   * Stores the person unless the row holds a change at least as new (events of one user may arrive out
   * of order after a redelivery; identity's updatedAt orders them). True when the row changed.
   */
  async upsert(person: PersonRow, tx: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await tx.query(
      `INSERT INTO people (id, role, display_name, twitter_username, profile_image_url, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET role = excluded.role, display_name = excluded.display_name,
         twitter_username = excluded.twitter_username, profile_image_url = excluded.profile_image_url,
         source_updated_at = excluded.source_updated_at
       WHERE people.source_updated_at < excluded.source_updated_at
       RETURNING id`,
      [person.id, person.role, person.displayName, person.twitterUsername, person.profileImageUrl, person.sourceUpdatedAt],
    )) as unknown[];
    return rows.length > 0;
  }
}
