import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The migrations applied to developer's database, oldest first (TypeORM's own table). */
@Injectable()
export class MigrationRepository {
  constructor(private readonly db: DataSource) {}

  async applied(): Promise<string[]> {
    const rows = (await this.db.query('SELECT name FROM migrations ORDER BY id')) as Array<{ name: string }>;
    return rows.map((r) => r.name);
  }
}
